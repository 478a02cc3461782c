/**
 * The live renderer's two clocks. Redraws are coalesced to one per interval measured from the
 * *end* of the last one, so a slow frame is followed by quiet rather than another frame (and
 * keys already typed, Ctrl+C, are handled before any rendering work); the spinner turns on its
 * own interval only while something on screen is waiting.
 */
export interface FrameClockOptions {
  /** Off in tests and when not drawing in place: every redraw happens at once. */
  animate: boolean;
  now: () => number;
  intervalMs: number;
  /** Draw the live area now. */
  draw: () => void;
  /** The spinner turned: draw its new frame. */
  tick: () => void;
}

export class FrameClock {
  /** The spinner's frame number. */
  frame = 0;
  private spinTimer: NodeJS.Timeout | undefined;
  private redrawTimer: NodeJS.Timeout | undefined;
  private lastRedraw = 0;

  constructor(private readonly o: FrameClockOptions) {}

  /** A redraw soon: at most one per interval. */
  schedule(): void {
    if (!this.o.animate) {
      this.redraw();
      return;
    }
    if (this.redrawTimer) return;
    const wait = Math.max(0, this.o.intervalMs - (this.o.now() - this.lastRedraw));
    this.redrawTimer = setTimeout(() => {
      this.redrawTimer = undefined;
      this.redraw();
    }, wait);
    this.redrawTimer.unref?.();
  }

  /** A redraw now (an event that changes what is on screen: a tool started or ended). */
  redraw(): void {
    try {
      this.o.draw();
    } finally {
      this.lastRedraw = this.o.now();
    }
  }

  /** Keep the spinner turning while `moving`; stop it when nothing waits any more. */
  spin(moving: boolean): void {
    if (!moving || !this.o.animate) {
      if (this.spinTimer && !moving) {
        clearInterval(this.spinTimer);
        this.spinTimer = undefined;
      }
      return;
    }
    if (this.spinTimer) return;
    this.spinTimer = setInterval(() => {
      this.frame += 1;
      this.o.tick();
    }, 100);
    this.spinTimer.unref?.();
  }

  stop(): void {
    if (this.spinTimer) clearInterval(this.spinTimer);
    if (this.redrawTimer) clearTimeout(this.redrawTimer);
    this.spinTimer = undefined;
    this.redrawTimer = undefined;
  }
}
