/**
 * Work the REPL holds back until the person starts typing, so that an idle prompt does nothing
 * (no CPU, no connection, no memory growing): the update notifier's look at the registry. It runs
 * with the rest of what the first message prepares (repl/lazy.ts TypingWork); a REPL left without
 * a key pressed never runs it, and the next start looks again.
 */
const waiting: (() => void)[] = [];

/** Run `fn` when the person first types at the REPL's prompt. */
export function onFirstKey(fn: () => void): void {
  waiting.push(fn);
}

/** The person typed: what was waiting runs now, once. */
export function firstKey(): void {
  for (const fn of waiting.splice(0)) fn();
}
