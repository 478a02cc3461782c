/**
 * The one reading of a typed answer as "yes", for every question zhi asks (tool approvals,
 * overwrite questions, deleting a session, the REPL's confirmations). Before this there were three
 * lists that had drifted: 可以 approved in the REPL and denied in `zhi -c`.
 *
 * Full-width letters are folded (ｙｅｓ is yes), case is ignored, and one closing mark a Chinese
 * keyboard adds out of habit (可以。 好的！) is allowed. Anything else — including an empty answer
 * unless the question says yes is its default — is no: a person must say yes to something risky.
 */
const YES_WORDS = new Set([
  'y',
  'yes',
  'ok',
  'okay',
  '是',
  '是的',
  '好',
  '好的',
  '对',
  '确认',
  '允许',
  '可以',
  '行',
  '同意',
]);

/** `null` is the answer of a closed terminal or Ctrl+C: always no. */
export function isYes(answer: string | null | undefined, defaultYes = false): boolean {
  if (answer === null || answer === undefined) return false;
  const a = normalizeAnswer(answer);
  if (!a) return defaultYes;
  return YES_WORDS.has(a);
}

/** An answer as compared: NFKC, lower case, trimmed, one trailing 。！!. dropped. */
export function normalizeAnswer(answer: string): string {
  return answer
    .normalize('NFKC')
    .trim()
    .toLowerCase()
    .replace(/[。.!！]$/u, '')
    .trim();
}
