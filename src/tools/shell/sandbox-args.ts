/**
 * The OS sandbox for shell commands, as data: a policy (what the command may write, read and
 * reach) goes in, the argument list for bubblewrap (Linux) or sandbox-exec (macOS Seatbelt) comes
 * out. Pure functions, no file system access, so every rule is unit-tested on every platform.
 *
 * The shape follows Codex CLI and Claude Code's sandbox-runtime: the whole file system read-only,
 * writable binds only for the output folder (and the current folder when the person widens it),
 * a private temp folder, the network namespace unshared unless allowed, and the person's secrets
 * folders hidden (an empty tmpfs over a folder, /dev/null over a file).
 */

export interface SandboxPolicy {
  /** The folder the command runs in (absolute). */
  cwd: string;
  /** Folders the command may write (absolute): the output folder, the current folder if widened. */
  writable: string[];
  /** Folders and files that must not be readable (absolute, each with whether it is a folder). */
  hidden: { path: string; dir: boolean }[];
  /** Folders readable again inside a hidden one (a skill folder inside zhi's config folder). */
  extraReadable: string[];
  /** Reach the network (off unless the person allows it for this command). */
  network: boolean;
  /** The private temp folder on macOS (Linux gets a fresh tmpfs at /tmp). */
  tempDir: string;
}

/** What the person's approval can widen, for one command. */
export interface Widening {
  writeCwd?: boolean;
  network?: boolean;
}

/** The folders and files a command never reads: keys, cloud credentials, zhi's own config. */
export function secretPaths(home: string, configDir: string): { path: string; dir: boolean }[] {
  const dirs = ['.ssh', '.gnupg', '.aws', '.azure', '.config/gcloud', '.kube', '.docker', '.password-store'];
  const files = ['.netrc', '.git-credentials', '.npmrc', '.pypirc'];
  return [
    ...dirs.map((d) => ({ path: joinPath(home, d), dir: true })),
    ...files.map((f) => ({ path: joinPath(home, f), dir: false })),
    { path: configDir, dir: true },
  ];
}

function joinPath(a: string, b: string): string {
  return `${a.replace(/\/+$/, '')}/${b}`;
}

/**
 * bubblewrap arguments, ending with `--` so the command follows. Order matters: later mounts
 * cover earlier ones, so the secrets are hidden after the current folder is bound, the writable
 * binds come after the secrets (an output folder inside a hidden one stays usable) and the
 * re-readable folders come last.
 */
export function bwrapArgs(p: SandboxPolicy): string[] {
  const args = ['--new-session', '--die-with-parent', '--unshare-pid', '--unshare-ipc', '--unshare-uts'];
  if (!p.network) args.push('--unshare-net');
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp');
  // The fresh /tmp would hide a current folder that lies under /tmp: show it again, read-only.
  if (p.cwd === '/tmp' || p.cwd.startsWith('/tmp/')) args.push('--ro-bind', p.cwd, p.cwd);
  for (const h of p.hidden) {
    if (h.dir) args.push('--tmpfs', h.path);
    else args.push('--ro-bind', '/dev/null', h.path);
  }
  for (const w of p.writable) args.push('--bind', w, w);
  for (const r of p.extraReadable) args.push('--ro-bind', r, r);
  args.push('--setenv', 'TMPDIR', '/tmp', '--chdir', p.cwd, '--');
  return args;
}

/**
 * A Seatbelt profile. Everything is allowed but writes outside the writable folders, reads of the
 * hidden paths, and the network (unless allowed). Paths come in as parameters (`-D`), never
 * spliced into the profile text, so no folder name can change the rules.
 */
export function seatbeltProfile(p: SandboxPolicy): string {
  const writable = p.writable.map((_, i) => `(subpath (param "W${i}"))`).join(' ');
  const hidden = p.hidden
    .map((h, i) => (h.dir ? `(subpath (param "H${i}"))` : `(literal (param "H${i}"))`))
    .join(' ');
  const readable = p.extraReadable.map((_, i) => `(subpath (param "R${i}"))`).join(' ');
  const lines = [
    '(version 1)',
    '(allow default)',
    `(deny file-write* (require-not (require-any ${writable} (subpath (param "TMP")) (literal "/dev/null") (literal "/dev/zero") (literal "/dev/stdout") (literal "/dev/stderr") (regex #"^/dev/tty") (regex #"^/dev/fd/"))))`,
  ];
  if (hidden) lines.push(`(deny file-read* (require-any ${hidden}))`);
  if (readable) lines.push(`(allow file-read* ${readable})`);
  if (!p.network) lines.push('(deny network-outbound (remote ip))', '(deny network-bind (local ip))');
  return lines.join('\n');
}

/** sandbox-exec arguments, ending just before the command. */
export function seatbeltArgs(p: SandboxPolicy): string[] {
  const defs = [
    ...p.writable.flatMap((w, i) => ['-D', `W${i}=${w}`]),
    ...p.hidden.flatMap((h, i) => ['-D', `H${i}=${h.path}`]),
    ...p.extraReadable.flatMap((r, i) => ['-D', `R${i}=${r}`]),
    '-D',
    `TMP=${p.tempDir}`,
  ];
  return ['-p', seatbeltProfile(p), ...defs];
}
