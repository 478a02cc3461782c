/**
 * The keys of standing approvals ("always allow … this session", Assessment.standing): made
 * here, read here, so that `/status` can list what a session allowed.
 */

export type StandingGrant =
  | { kind: 'tool'; tool: string }
  | { kind: 'prefix'; words: string[]; operands: string[] }
  | { kind: 'exact'; words: string[] };

export function toolStandingKey(tool: string): string {
  return `tool:${tool}`;
}

/**
 * A shell command: `exact`, the whole command word for word; otherwise a prefix (`git status`,
 * `cat`) with the command's operands — every word after the prefix but bare options — so that
 * options may change and files may not (issue 37: `cat README.md` never covers `cat /srv/x`).
 */
export function shellStandingKey(
  words: readonly string[],
  exact: boolean,
  operands: readonly string[] = [],
): string {
  return exact ? `shell=${JSON.stringify(words)}` : `shell:${JSON.stringify({ words, operands })}`;
}

/** What a key allows, or undefined for a key of no known form. */
export function readStandingKey(key: string): StandingGrant | undefined {
  if (key.startsWith('tool:')) return { kind: 'tool', tool: key.slice(5) };
  const kind = key.startsWith('shell:') ? 'prefix' : key.startsWith('shell=') ? 'exact' : undefined;
  if (!kind) return undefined;
  const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((w) => typeof w === 'string');
  try {
    const value: unknown = JSON.parse(key.slice(6));
    if (kind === 'exact') return strings(value) ? { kind, words: value } : undefined;
    const { words, operands } = (value ?? {}) as { words?: unknown; operands?: unknown };
    if (strings(words) && strings(operands)) return { kind, words, operands };
  } catch {
    // not a key this module made
  }
  return undefined;
}

/** Words as a person would type them (a word with spaces in quotes). */
export function showWords(words: readonly string[]): string {
  return words.map((w) => (/\s/.test(w) || w === '' ? JSON.stringify(w) : w)).join(' ');
}
