/**
 * What a bench row returns. A row that times something is a ratio to a floor measured in the
 * same run (so a loaded machine slows both sides); a row that counts something (requests, tokens,
 * files) has an absolute budget, because counts do not depend on load.
 */
export interface Row {
  name: string;
  value: number;
  unit: string;
  /** The floor it is compared with, measured in the same run, in the same unit. */
  floor?: { name: string; value: number };
  /** Budget as a ratio: value / floor must be at most this. */
  maxRatio?: number;
  /** Budget as a ratio: value / floor must be at least this (efficiency rows: floor / value). */
  minRatio?: number;
  /** Budget as an absolute value (counts only): value must be at most this. */
  budget?: number;
  note?: string;
}

/** How a row is asked to run: `quick` = once, at small sizes (CI: crashes fail, budgets are reported). */
export interface BenchOptions {
  quick: boolean;
}

export type Measure = (o: BenchOptions) => Promise<Row[]>;

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Whether a row is within its budget (undefined: it has none). */
export function withinBudget(r: Row): boolean | undefined {
  if (r.budget !== undefined) return r.value <= r.budget;
  if (!r.floor || r.floor.value <= 0) return undefined;
  const ratio = r.value / r.floor.value;
  if (r.maxRatio !== undefined) return ratio <= r.maxRatio;
  if (r.minRatio !== undefined) return ratio >= r.minRatio;
  return undefined;
}
