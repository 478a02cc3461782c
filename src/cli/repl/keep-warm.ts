/**
 * A connection to the API kept ready while the person types, so their message goes out at once
 * instead of waiting for a TCP and TLS handshake (tens to hundreds of milliseconds, and the CPU of
 * a TLS handshake). Node's fetch closes an idle connection after about 4 s (less when the server
 * says so), and a message takes longer than that to type: so the connection is refreshed while
 * keys are pressed, at most every 2 s, and never while nobody types. Only after a pause: a whole
 * message arriving at once (a paste, a script) is sent before the refresh would start, and must
 * not race it for the connection.
 */

/** Fresh enough: Node's fetch keeps an idle connection about 4 s, or the server's hint less 1 s. */
const FRESH_MS = 2000;
/** A key pressed this long ago, with no message sent since: the person is typing. */
const SETTLE_MS = 50;
/** After a failed attempt (offline, a proxy refusing): try again no sooner than this. */
const FAILED_MS = 60_000;

export class KeepWarm {
  private last = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly connect: () => Promise<boolean>,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** A key was pressed (or the prompt is up): refresh the connection soon unless it is fresh. */
  typed(): void {
    if (this.timer || this.now() - this.last < FRESH_MS) return;
    this.timer = setTimeout(() => this.refresh(), SETTLE_MS);
    this.timer.unref();
  }

  /** A message went out, or is about to: its request uses (or opens) the connection. */
  used(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.last = this.now();
  }

  private refresh(): void {
    this.timer = undefined;
    this.last = this.now();
    void this.connect().then(
      (ok) => {
        if (!ok) this.last = this.now() + FAILED_MS - FRESH_MS;
      },
      () => undefined,
    );
  }
}
