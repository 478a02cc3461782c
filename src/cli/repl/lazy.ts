import type { ChatSession } from '../../agent/chat.js';
import { estimateToolsTokens } from '../../agent/tokens.js';
import type { BuiltChat } from '../chat.js';
import { firstKey } from '../first-key.js';
import { loadRenderer } from '../render/draw-run.js';
import type { SlashCommand } from './commands/types.js';
import { KeepWarm } from './keep-warm.js';

/** A value, or how to load it when first needed. */
export type Lazy<T> = T | (() => Promise<T>);

/** Load a lazy value once; later calls get the same promise. */
export function once<T>(value: Lazy<T>): () => Promise<T> {
  if (typeof value !== 'function') return () => Promise.resolve(value);
  let p: Promise<T> | undefined;
  return () => {
    p ??= (value as () => Promise<T>)();
    return p;
  };
}

/** Later command modules override earlier ones of the same name (a richer /usage, say). */
export function dedupeCommands(all: SlashCommand[]): SlashCommand[] {
  const byName = new Map<string, SlashCommand>();
  for (const c of all) byName.set(c.name, c);
  return [...byName.values()];
}

/**
 * What the REPL does ahead of the person's first message, and only while they type it (never while
 * nobody types: an idle prompt uses no CPU). Once a key has been pressed for a moment, the
 * conversation (tools, session wiring) and the Markdown renderer load, the tools are weighed, the
 * session file is made in `.pending/` (session-file.ts `prepare`), and a connection to the API is
 * kept ready while keys are pressed (keep-warm.ts). A whole message arriving at once (a paste, a
 * script) is sent before any of it starts: it then loads what it needs itself.
 */
export class TypingWork {
  private prepared = false;
  private readonly keepWarm: KeepWarm;

  constructor(
    private readonly o: {
      loadChat: () => Promise<BuiltChat>;
      /** The REPL's own modules the first message needs (its send path). */
      loadMore: () => Promise<unknown>;
      redraw: () => void;
    },
  ) {
    this.keepWarm = new KeepWarm(() => this.connect());
  }

  /** A key was pressed at the prompt. */
  typed(): void {
    this.keepWarm.typed();
  }

  /** A message or command was sent, or its answer just came: the connection is fresh. */
  sent(): void {
    this.keepWarm.used();
  }

  private async connect(): Promise<boolean> {
    const built = await this.o.loadChat();
    const connected = built.client?.http.preconnect();
    if (!this.prepared) {
      this.prepared = true;
      this.prepare(built.chat);
    }
    return (await connected) ?? false;
  }

  /** What the first message would otherwise do on Enter; each is kept for the messages after it. */
  private prepare(chat: ChatSession): void {
    // The status line shows the chat's model and context from now on.
    this.o.redraw();
    // What waited for a key (the update notifier's look at the registry).
    firstKey();
    // The tool schemas are converted from zod once and their weight kept; the context is weighed.
    estimateToolsTokens(chat.deps.tools.schemas());
    chat.session?.compactor.status(chat.messages);
    chat.session?.recorder.prepare();
    void loadRenderer()
      .then(() => import('marked'))
      // marked builds its rules the first time it reads text: the first answer would pay for it.
      .then(({ lexer }) => lexer('# a\n\n**b** `c` [d](e)\n\n- f\n\n| g |\n|---|\n| h |\n\n```js\nx\n```\n'))
      .catch(() => undefined);
    void this.o.loadMore().catch(() => undefined);
    void import('./warm-up.js').then((m) => m.warmUp(chat)).catch(() => undefined);
  }
}
