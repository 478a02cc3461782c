/**
 * One concurrency budget per run: every model call of a folder run — each file's own calls, the
 * parts of its long documents, the per-file steps of a composite skill — passes through one gate
 * of `limit` calls at once. Work items may wait in greater numbers (a long document's parts are
 * queued), but calls in flight never exceed what the pool decided (which follows the API's cap).
 * A call holds its place only while it runs, never while it waits for another, so the gate cannot
 * deadlock.
 */
import type { ChatRequest, LlmClient, StreamEvent } from '../../llm/types.js';

export class CallGate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private limit: number,
    signal: AbortSignal,
  ) {
    // Ctrl+C: the waiting calls go on at once (they end as interrupted).
    signal.addEventListener('abort', () => this.flush(), { once: true });
  }

  /** The pool's limit changed (a 1302, growing back): the gate follows it. */
  setLimit(n: number): void {
    this.limit = Math.max(1, n);
    this.pump();
  }

  private aborted = false;

  private flush(): void {
    this.aborted = true;
    while (this.waiting.length) this.waiting.shift()!();
  }

  private pump(): void {
    while (this.active < this.limit && this.waiting.length) {
      this.active += 1;
      this.waiting.shift()!();
    }
  }

  private acquire(): Promise<void> {
    if (this.aborted) return Promise.resolve();
    if (this.active < this.limit) {
      this.active += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    this.active = Math.max(0, this.active - 1);
    this.pump();
  }

  /** The model client whose calls pass through this gate. */
  wrap(inner: LlmClient): LlmClient {
    const gate = this;
    return {
      async *stream(req: ChatRequest): AsyncGenerator<StreamEvent> {
        await gate.acquire();
        try {
          yield* inner.stream(req);
        } finally {
          gate.release();
        }
      },
    };
  }
}
