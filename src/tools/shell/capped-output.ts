/** The output a command wrote, kept up to a byte cap (run.ts). */

/** Output kept up to a byte cap (stdout and stderr together); the rest is only counted. */
export class CappedOutput {
  readonly out: Buffer[] = [];
  readonly err: Buffer[] = [];
  kept = 0;
  total = 0;

  constructor(private readonly maxBytes: number) {}

  take(into: Buffer[]): (chunk: Buffer) => void {
    return (chunk) => {
      this.total += chunk.length;
      const room = this.maxBytes - this.kept;
      if (room <= 0) return;
      const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
      into.push(part);
      this.kept += part.length;
    };
  }
}
