/**
 * Array helpers that hold for any length. `Math.max(...xs)` and `out.push(...xs)` pass every item
 * as an argument, and past roughly 100,000 items V8 throws "Maximum call stack size exceeded":
 * a long table, a big file or thousands of sessions must never take zhi down that way.
 */

/** The largest of `values` (or `floor` when there are none, or all are smaller). */
export function maxOf(values: Iterable<number>, floor = Number.NEGATIVE_INFINITY): number {
  let max = floor;
  for (const v of values) if (v > max) max = v;
  return max;
}

/** The largest `measure(item)` over `items`, at least `floor`. */
export function maxBy<T>(items: Iterable<T>, measure: (item: T) => number, floor = 0): number {
  let max = floor;
  for (const item of items) {
    const v = measure(item);
    if (v > max) max = v;
  }
  return max;
}

/** Append every item of `items` to `target` (in place) and return `target`. */
export function pushAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}

/** Put `items` at index `at` of `target` (in place), as `splice(at, 0, ...items)` would. */
export function insertAll<T>(target: T[], at: number, items: Iterable<T>): T[] {
  const list = [...items];
  const tail = target.splice(at);
  pushAll(target, list);
  return pushAll(target, tail);
}

/** Replace everything of `target` from index `from` on with `items` (in place). */
export function replaceFrom<T>(target: T[], from: number, items: Iterable<T>): T[] {
  const list = [...items];
  target.length = Math.min(target.length, from);
  return pushAll(target, list);
}

/**
 * Order of code points, for sorting names and paths whose order only has to be stable (skill
 * files, ids). `localeCompare` is slower, and its first call starts ICU's collator (≈ 6 ms),
 * which a one-shot would pay for sorting a handful of ASCII names.
 */
export function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
