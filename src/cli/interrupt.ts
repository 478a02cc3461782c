import { ExitCode, type ExitCodeValue } from '../support/errors.js';

/** A second Ctrl+C this soon after the first, while the first is still stopping, leaves zhi. */
export const DOUBLE_PRESS_MS = 1500;

export interface InterruptOptions {
  /** Leave the process with this code (after stdout drains). */
  exit: (code: ExitCodeValue) => void;
  now?: () => number;
  windowMs?: number;
}

/**
 * Ctrl+C for the whole process: made once in cli/app.ts, carried by the app context, used by
 * every mode. The first press stops what is running — an answer, a tool, a skill, the files of a
 * folder run — through the AbortSignal `run` gives it, so it ends cleanly (the partial answer and
 * its usage kept, nothing half-written). A second press within DOUBLE_PRESS_MS, while the first
 * is still stopping, leaves at once with exit code 130. A SIGINT with nothing running leaves too.
 *
 * In the REPL the terminal is in raw mode, so Ctrl+C is a key, not a signal: the line editor
 * calls `press()` itself, and at the prompt (nothing running) the key is the editor's.
 */
export class Interrupt {
  private readonly running = new Set<AbortController>();
  private lastPress = Number.NEGATIVE_INFINITY;
  private readonly now: () => number;
  private readonly windowMs: number;

  constructor(private readonly o: InterruptOptions) {
    this.now = o.now ?? Date.now;
    this.windowMs = o.windowMs ?? DOUBLE_PRESS_MS;
  }

  /** Run something Ctrl+C should stop: the first press aborts the signal given to `fn`. */
  async run<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const abort = new AbortController();
    this.running.add(abort);
    try {
      return await fn(abort.signal);
    } finally {
      this.running.delete(abort);
    }
  }

  /** True while something can be stopped. */
  get busy(): boolean {
    return this.running.size > 0;
  }

  /**
   * One Ctrl+C. Returns false when nothing was running (the caller decides what an idle press
   * means); a second press while the first is still stopping leaves the process.
   */
  press(): boolean {
    if (!this.running.size) return false;
    const now = this.now();
    const stopping = [...this.running].some((a) => a.signal.aborted);
    if (stopping && now - this.lastPress <= this.windowMs) {
      this.o.exit(ExitCode.interrupted);
      return true;
    }
    this.lastPress = now;
    for (const a of this.running) a.abort();
    return true;
  }

  /**
   * Esc in the REPL: stops what is running, like a first Ctrl+C, but never leaves zhi however
   * often it is pressed. Returns false when nothing was running.
   */
  stop(): boolean {
    if (!this.running.size) return false;
    this.lastPress = this.now();
    for (const a of this.running) a.abort();
    return true;
  }

  /** Take SIGINT for the process (once, at start-up): a press, or leaving when idle. */
  listen(proc: NodeJS.EventEmitter = process): () => void {
    const onSigint = () => {
      if (!this.press()) this.o.exit(ExitCode.interrupted);
    };
    proc.on('SIGINT', onSigint);
    return () => proc.off('SIGINT', onSigint);
  }
}

/** Hand every event of a run to `onEvent` and return the run's result. */
export async function pump<E, R>(run: AsyncGenerator<E, R>, onEvent: (ev: E) => void): Promise<R> {
  let step = await run.next();
  while (!step.done) {
    onEvent(step.value);
    step = await run.next();
  }
  return step.value;
}
