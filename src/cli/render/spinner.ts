/** A one-line spinner on stderr with elapsed time. Does nothing when stderr is not a terminal. */
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export class Spinner {
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
    if (!this.enabled) return;
    this.text = text;
    this.started = Date.now();
    if (this.timer) return;
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
