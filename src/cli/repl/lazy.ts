import type { BuiltChat } from '../chat.js';
import type { AppContext } from '../context.js';
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

let rendererModule: Promise<typeof import('../render/repl-renderer.js')> | undefined;
/** The Markdown renderer (marked): loaded after the prompt shows, never before. */
export function loadRenderer(): Promise<typeof import('../render/repl-renderer.js')> {
  rendererModule ??= import('../render/repl-renderer.js');
  return rendererModule;
}

/** Later command modules override earlier ones of the same name (a richer /usage, say). */
export function dedupeCommands(all: SlashCommand[]): SlashCommand[] {
  const byName = new Map<string, SlashCommand>();
  for (const c of all) byName.set(c.name, c);
  return [...byName.values()];
}

/**
 * After `delayMs`, while the prompt waits: build the conversation and load the renderer, the
 * slash commands and Node's fetch, and type made-up messages to twins of the chat (warm.ts).
 * Never keeps the process alive and stops once the person sends something; a failure shows when
 * the chat is first used.
 */
export function warmUpLater(
  delayMs: number,
  o: {
    ctx: AppContext;
    loadCommands: () => Promise<unknown>;
    loadChat: () => Promise<BuiltChat>;
    redraw: () => void;
    /** True once the person has sent a message or a command: the warm-up stops at its next step. */
    stopped: () => boolean;
  },
): void {
  const quiet = () => undefined;
  const timer = setTimeout(() => {
    void o.loadCommands().catch(quiet);
    void import('./warm.js')
      .then(async (w) => {
        const { chat } = await o.loadChat();
        o.redraw();
        w.warmChat(chat);
        await w.warmMarkdown();
        if (o.stopped()) return;
        await w.warmTurn(o.ctx, chat, o.stopped);
      })
      .catch(quiet);
  }, delayMs);
  timer.unref();
}

/**
 * What the REPL does while its prompt waits: the warm-up, once (above), and a connection to the
 * API kept ready while the person types (keep-warm.ts). Both stand back once something is sent.
 */
export class IdleWork {
  private sentOnce = false;
  private readonly keepWarm: KeepWarm;

  constructor(private readonly o: Omit<Parameters<typeof warmUpLater>[1], 'stopped'>) {
    this.keepWarm = new KeepWarm(async () => (await (await o.loadChat()).client?.http.preconnect()) ?? false);
  }

  /** The prompt is up: warm up after `delayMs`, and open a connection for the first message. */
  start(delayMs: number): void {
    warmUpLater(delayMs, { ...this.o, stopped: () => this.sentOnce });
    this.keepWarm.typed();
  }

  /** A key was pressed at the prompt. */
  typed(): void {
    this.keepWarm.typed();
  }

  /** A message or command was sent, or its answer just came: the connection is fresh. */
  sent(): void {
    this.sentOnce = true;
    this.keepWarm.used();
  }
}
