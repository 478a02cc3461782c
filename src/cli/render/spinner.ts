/** A one-line spinner on stderr with elapsed time. Does nothing when stderr is not a terminal. */
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export class Spinner {
  /** Spinners turning right now: a question for the user must stop them first. */
  private static readonly running = new Set<Spinner>();

  private static held = 0;

  /** Stop every spinner (before a prompt, so the redraw cannot erase the question). */
  static stopAll(): void {
    for (const s of [...Spinner.running]) s.stop();
  }

  /**
   * Keep every spinner still while a question is open: events queued before the question (a
   * tool starting) must not start one that would redraw over it.
   */
  static async holdWhile<T>(fn: () => Promise<T>): Promise<T> {
    Spinner.stopAll();
    Spinner.held += 1;
    try {
      return await fn();
    } finally {
      Spinner.held -= 1;
    }
  }

  private timer: NodeJS.Timeout | undefined;
  private frame = 0;
  private started = 0;
  private text = '';

  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly enabled: boolean,
    private readonly dim: (s: string) => string = (s) => s,
  ) {}

  start(text: string): void {
    if (!this.enabled || Spinner.held > 0) return;
    this.text = text;
    this.started = Date.now();
    if (this.timer) return;
    Spinner.running.add(this);
    this.render();
    this.timer = setInterval(() => this.render(), 100);
    this.timer.unref();
  }

  update(text: string): void {
    this.text = text;
  }

  stop(): void {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
    Spinner.running.delete(this);
    this.stream.write('\r\x1b[2K');
  }

  get active(): boolean {
    return this.timer !== undefined;
  }

  private render(): void {
    const elapsed = ((Date.now() - this.started) / 1000).toFixed(1);
    this.frame = (this.frame + 1) % FRAMES.length;
    this.stream.write(`\r\x1b[2K${FRAMES[this.frame]} ${this.dim(`${this.text} ${elapsed}s`)}`);
  }
}
