/**
 * The environment a shell command gets: an allow-list, as Codex CLI's `shell_environment_policy`
 * does, not a deny-list. A plain `env` or `printenv` in an approved command must not send
 * `GITHUB_TOKEN`, `OPENAI_API_KEY`, `AWS_SECRET_ACCESS_KEY` or an agent socket to the model:
 * only what a shell and ordinary programs need passes, plus the names the person lists in
 * config (`shell_env`), given to the shell tool when it is built (`ShellSettings`).
 */

/** Names every command gets (when set): finding programs, the person's language, the terminal. */
const ALLOWED = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TERM',
  'COLORTERM',
  'NO_COLOR',
  'TZ',
  'TMPDIR',
  'PWD',
  'EDITOR',
  'PAGER',
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'XDG_CACHE_HOME',
  'XDG_RUNTIME_DIR',
  // Windows: a command cannot start without these.
  'SYSTEMROOT',
  'SYSTEMDRIVE',
  'WINDIR',
  'COMSPEC',
  'PATHEXT',
  'TEMP',
  'TMP',
  'USERPROFILE',
  'USERNAME',
  'APPDATA',
  'LOCALAPPDATA',
  'PROGRAMDATA',
  'PROGRAMFILES',
  'PROGRAMFILES(X86)',
  'COMMONPROGRAMFILES',
  'NUMBER_OF_PROCESSORS',
  'PROCESSOR_ARCHITECTURE',
  'OS',
]);
/** The locale settings (POSIX and glibc categories): allowed only with a value shaped like a locale. */
const LOCALE_NAMES = new Set([
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'LC_COLLATE',
  'LC_MESSAGES',
  'LC_MONETARY',
  'LC_NUMERIC',
  'LC_TIME',
  'LC_ADDRESS',
  'LC_IDENTIFICATION',
  'LC_MEASUREMENT',
  'LC_NAME',
  'LC_PAPER',
  'LC_TELEPHONE',
]);
/** `C`, `POSIX`, `zh_CN.UTF-8`, `sr_RS@latin`, `C.UTF-8`: what a locale name looks like. */
const LOCALE_VALUE =
  /^(?:C|POSIX|[a-z]{2,3}(?:_[A-Z]{2}|_[0-9]{3})?)(?:\.[A-Za-z0-9-]{1,20})?(?:@[A-Za-z0-9]{1,20})?$/;

/** A locale setting that may pass: a real category with a locale's value (`LANGUAGE`: a list). */
function isLocale(name: string, value: string): boolean {
  if (name === 'LANGUAGE') return value.split(':').every((part) => part === '' || LOCALE_VALUE.test(part));
  return LOCALE_NAMES.has(name) && (value === '' || LOCALE_VALUE.test(value));
}

/** A name that may be listed in `shell_env`. */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The environment for one command: only allowed names plus `names` (the person's `shell_env`),
 * never zhi's own key.
 */
export function commandEnv(env: NodeJS.ProcessEnv, names: readonly string[]): NodeJS.ProcessEnv {
  const wanted = new Set(names.filter((n) => ENV_NAME.test(n)).map((n) => n.toUpperCase()));
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    const upper = name.toUpperCase();
    if (upper === 'ZHI_API_KEY') continue;
    if (ALLOWED.has(upper) || isLocale(upper, value) || wanted.has(upper)) out[name] = value;
  }
  return out;
}
