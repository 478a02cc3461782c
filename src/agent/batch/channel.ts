/**
 * A queue between concurrent producers and one async generator: workers push events, the
 * generator yields them in arrival order until the work is over.
 */
export class Channel<E> {
  private readonly items: E[] = [];
  private wake: (() => void) | undefined;
  private closed = false;

  push(item: E): void {
    this.items.push(item);
    this.poke();
  }

  close(): void {
    this.closed = true;
    this.poke();
  }

  private poke(): void {
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }

  async *drain(): AsyncGenerator<E> {
    while (true) {
      while (this.items.length) yield this.items.shift()!;
      if (this.closed) return;
      await new Promise<void>((r) => {
        this.wake = r;
      });
    }
  }
}
