/**
 * How much slower than a quiet machine this one is now, for the ceilings of waits. Every wait in
 * the suite is a ceiling, never a pace (a test goes on as soon as what it waits for happens), but a
 * ceiling set for a quiet machine fails a correct test on a machine shared with other runs: at a
 * load of 30–47 on 2 cores a zhi start took tens of seconds and 76 tests failed on their ceilings.
 * So a ceiling is multiplied by the load per core at the moment the wait starts (at least 1, at
 * most 10): the suite slows down under load instead of failing. `ZHI_TEST_SLOWDOWN` fixes the
 * factor (a CI runner known to be slow, or 1 to see the quiet-machine ceilings).
 */
import { availableParallelism, loadavg } from 'node:os';

export function slowdown(): number {
  const fixed = Number(process.env.ZHI_TEST_SLOWDOWN);
  if (Number.isFinite(fixed) && fixed > 0) return fixed;
  const perCore = (loadavg()[0] ?? 0) / availableParallelism();
  return Math.min(10, Math.max(1, perCore));
}

/** A ceiling of `ms` on a quiet machine, stretched by the machine's load now. */
export function stretched(ms: number): number {
  return Math.round(ms * slowdown());
}
