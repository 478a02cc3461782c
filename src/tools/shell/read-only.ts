/**
 * A command that failed because the sandbox kept it from writing is told as that — to the model
 * and, in their language, to the person — whatever language the command spoke. Programs print the
 * C library's words for EROFS in the person's locale ("Read-only file system", "只读文件系统",
 * "Dateisystem ist nur lesbar"…), so zhi learns those words from the cause itself: once per
 * locale, a write to a read-only folder inside the same sandbox, with the same environment, and
 * what it printed after the last colon. The shell tool then states the cause in a line of its own
 * (BLOCKED), which is what renderers recognise: zhi's own words, never the program's.
 */

/** The line zhi adds to a shell result when the sandbox refused one of its writes. */
export const BLOCKED =
  'Blocked by the sandbox: the command tried to write where the sandbox does not let it.';

/** In the C locale (and most systems' English), strerror(EROFS). */
const ENGLISH = 'Read-only file system';

/** A write the sandbox always refuses: the system folders are bound read-only. */
export const PROBE = 'touch /usr/.zhi-read-only-probe';

const learned = new Map<string, Promise<string | undefined>>();

/** The environment's locale, as the C library picks its messages' language. */
export function localeOf(env: Readonly<Record<string, string | undefined>>): string {
  return env.LANGUAGE || env.LC_ALL || env.LC_MESSAGES || env.LANG || 'C';
}

/** `touch: cannot touch '/usr/x': 只读文件系统` → `只读文件系统`. */
export function wordsIn(probeOutput: string): string | undefined {
  const line = probeOutput.split('\n').find((l) => l.includes('.zhi-read-only-probe'));
  const words = line?.slice(line.lastIndexOf(':') + 1).trim();
  return words && words.length >= 3 ? words : undefined;
}

/**
 * Did the sandbox refuse a write of this command? Its output holds the locale's words for EROFS
 * (learned once per locale with `probe`, which runs PROBE in the same sandbox).
 */
export async function sandboxRefusedWrite(
  output: string,
  env: Readonly<Record<string, string | undefined>>,
  probe: () => Promise<string>,
): Promise<boolean> {
  if (output.includes(ENGLISH)) return true;
  const locale = localeOf(env);
  if (/^(C|POSIX|en)([._@]|$)/i.test(locale)) return false;
  let words = learned.get(locale);
  if (!words) {
    words = probe().then(wordsIn, () => undefined);
    learned.set(locale, words);
  }
  const said = await words;
  return said !== undefined && output.includes(said);
}

/** The folder a blocked command could write in, from a shell result zhi wrote; undefined when not blocked. */
export function blockedWriteDir(result: string): string | undefined {
  if (!result.includes(BLOCKED)) return undefined;
  return /It ran in a sandbox: it could (?:write|create new files) only under ((?:(?! and ).)+) \(and a private/.exec(
    result,
  )?.[1];
}
