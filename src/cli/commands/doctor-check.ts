/** One line of `zhi doctor`: its own module so the checks in other files can name it without a cycle. */

export interface Check {
  /** False: something is wrong, and `zhi doctor` exits 1. */
  ok: boolean;
  /** A first line, then how to fix it. */
  lines: string[];
  /** Worth knowing but nothing wrong (shown with ·). */
  note?: boolean;
  /** Missing but not needed for zhi to work: marked, without failing the run. */
  optional?: boolean;
}
