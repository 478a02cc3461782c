/**
 * The OS sandbox for shell commands, as data: a policy (what the command may write, read and
 * reach) goes in, the argument list for bubblewrap (Linux) or sandbox-exec (macOS Seatbelt) comes
 * out. Pure functions, no file system access, so every rule is unit-tested on every platform.
 *
 * The shape follows Codex CLI and Anthropic's sandbox-runtime: a user namespace with every
 * capability dropped (also when zhi runs as root); on Linux a root built from an allow-list
 * (sandbox-root.ts: the system folders read-only, root-only files in /etc masked, the current
 * folder and installed programs, nothing else of the host); the person's secrets hidden (an empty
 * tmpfs over a folder, /dev/null over a file), writable binds only for the output folder (and the
 * current folder when the person widens it) with everything already in it bound read-only over
 * itself, a private size-capped temp folder, no network unless allowed, and a seccomp allow-list
 * of system calls (seccomp.ts).
 */
import { pushAll } from '../../support/arrays.js';
import type { Place, RootEntry } from './sandbox-root.js';

export type { Place } from './sandbox-root.js';

export interface SandboxPolicy {
  /** The folder the command runs in (absolute). */
  cwd: string;
  /** Folders the command may write (absolute): the output folder, the current folder if widened. */
  writable: string[];
  /**
   * What already exists directly inside the output folder: bound read-only over itself, so an
   * approved `rm -rf`, `find -delete` or `>` cannot delete or change an earlier result (a mount
   * point cannot be removed or renamed), while new files can be created beside them.
   */
  protected?: Place[];
  /** Folders and files that must not be readable (absolute, each with whether it is a folder). */
  hidden: Place[];
  /** Folders hidden whole (the home folders), before the current folder and `shown` come back. */
  privateRoots?: string[];
  /** Folders inside a private root readable again: installed programs (~/.local/bin, ~/.nvm…). */
  shown?: string[];
  /** Folders readable again inside a hidden one (a skill folder inside zhi's config folder). */
  extraReadable: string[];
  /** Reach the network (off unless the person allows it for this command). */
  network: boolean;
  /** The private temp folder on macOS (Linux gets a fresh tmpfs at /tmp). */
  tempDir: string;
  /** The file descriptor bubblewrap reads the seccomp filter from, when there is one. */
  seccompFd?: number;
  /** Linux: what the root is built from (sandbox-root.ts). Without it the root holds only the policy's own places. */
  root?: SandboxRoot;
  /** Linux: the private /tmp's size cap in bytes. */
  tmpBytes?: number;
  /** Linux: environment set inside (the filtering proxy's address when the network is allowed). */
  setenv?: Record<string, string>;
}

/** The Linux sandbox's root: system folders, their root-only files masked, programs' folders. */
export interface SandboxRoot {
  system: RootEntry[];
  /** Under the system folders, what others may not read (masked even for root). */
  masked: Place[];
  /** Install folders of programs on PATH outside the system folders (`/opt/node`). */
  programs: string[];
}

/** The sandbox's limits (Linux): /tmp's size, the size of any file written, processes (tasks). */
export interface SandboxLimits {
  tmpBytes: number;
  fileBytes: number;
  processes: number;
}

export const LIMITS: SandboxLimits = {
  tmpBytes: 512 * 1024 * 1024,
  fileBytes: 1024 * 1024 * 1024,
  processes: 256,
};

/**
 * The command line bwrap runs: a shell that sets the limits (soft and hard, so the command cannot
 * raise them again) and then runs the command in a shell of its own, read exactly as before.
 * `ulimit -f` counts 512-byte blocks in sh; processes are `-u` in bash, `-p` in dash.
 */
export function limitedCommand(command: string, limits: SandboxLimits = LIMITS, runner?: string[]): string[] {
  const blocks = Math.floor(limits.fileBytes / 512);
  const n = limits.processes;
  const prologue = `ulimit -f ${blocks}; ulimit -u ${n} 2>/dev/null || ulimit -p ${n} 2>/dev/null`;
  // `runner` (the network bridge) starts the command itself once it is ready.
  const argv = runner ? [...runner, command] : ['/bin/sh', '-c', command];
  return ['/bin/sh', '-c', `${prologue}\nexec "$@"`, 'sh', ...argv];
}

/** Folders under a home folder where programs are installed: readable inside the sandbox. */
export const HOME_PROGRAMS: readonly string[] = [
  '.local/bin',
  '.local/lib',
  '.local/share/pnpm',
  '.local/pipx',
  '.local/share/fonts',
  '.fonts',
  '.nvm',
  '.volta',
  '.fnm',
  '.npm-global',
  '.pyenv',
  '.rbenv',
  '.cargo/bin',
  '.rustup',
  '.deno',
  '.bun',
  'go',
  '.sdkman',
  '.dotnet',
  '.ghcup',
  '.opam',
  'miniconda3',
  'anaconda3',
  'miniforge3',
  '.conda',
  '.linuxbrew',
  '.TinyTeX',
  '.gitconfig',
  '.config/git',
  '.config/fontconfig',
];

function inside(parent: string, child: string): boolean {
  return child === parent || child.startsWith(parent.endsWith('/') ? parent : `${parent}/`);
}

/**
 * bubblewrap arguments, ending with `--` so the command follows. The root starts empty and gets
 * only what is listed: the system folders (read-only, root-only files masked), /dev, /proc, a
 * private /tmp, installed programs, the current folder. Order matters: later mounts cover earlier
 * ones — secrets that hold a writable folder, the writable binds, what was already in them
 * (read-only), the other secrets (so a `.env` in the output folder stays hidden), the masks (also
 * when the current folder is a system folder) and the re-readable folders last.
 */
export function bwrapArgs(p: SandboxPolicy): string[] {
  const args = ['--new-session', '--die-with-parent', '--unshare-user', '--cap-drop', 'ALL'];
  args.push('--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try');
  if (!p.network) args.push('--unshare-net');
  if (p.seccompFd !== undefined) args.push('--seccomp', String(p.seccompFd));
  const root = p.root ?? { system: [], masked: [], programs: [] };
  for (const e of root.system) {
    if (e.link !== undefined) args.push('--symlink', e.link, e.path);
    else args.push('--ro-bind', e.path, e.path);
  }
  args.push('--dev', '/dev', '--proc', '/proc');
  if (p.tmpBytes !== undefined) args.push('--size', String(p.tmpBytes));
  // /var/tmp is the private /tmp: programs that write there work, the host's is not seen.
  args.push('--tmpfs', '/tmp', '--dir', '/var', '--symlink', '../tmp', '/var/tmp');
  const shown = [...root.programs, ...(p.shown ?? []), p.cwd];
  for (const s of shown) args.push('--ro-bind', s, s);
  const bound = [...root.system.filter((e) => e.link === undefined).map((e) => e.path), ...shown];
  pushAll(bound, [...p.writable, ...p.extraReadable]);
  // A secret in a place the root does not hold needs no mount; one holding a bound place does.
  const seen = (h: Place) => bound.some((b) => inside(b, h.path) || (h.dir && inside(h.path, b)));
  const hidden = p.hidden.filter(seen);
  const holdsWritable = (h: Place) => h.dir && p.writable.some((w) => inside(h.path, w));
  const hide = (h: Place) => {
    if (h.dir) args.push('--tmpfs', h.path);
    else args.push('--ro-bind', '/dev/null', h.path);
  };
  for (const h of hidden) if (holdsWritable(h)) hide(h);
  for (const w of p.writable) args.push('--bind', w, w);
  for (const e of p.protected ?? []) args.push('--ro-bind', e.path, e.path);
  for (const h of hidden) if (!holdsWritable(h)) hide(h);
  for (const m of root.masked) hide(m);
  for (const r of p.extraReadable) args.push('--ro-bind', r, r);
  for (const [name, value] of Object.entries(p.setenv ?? {})) args.push('--setenv', name, value);
  args.push('--setenv', 'TMPDIR', '/tmp', '--chdir', p.cwd, '--');
  return args;
}

/**
 * A Seatbelt profile with the same rules. Everything is allowed but writes outside the writable
 * folders (and to what already existed in them), reads of the home folders beyond the current
 * folder and installed programs, reads of the hidden paths, unix sockets, Apple Events, and the
 * network (unless allowed). Not yet run on a real Mac (see docs/architecture.md). Later rules win. Paths come in as parameters (`-D`), never spliced into the profile
 * text, so no folder name can change the rules.
 */
export function seatbeltProfile(p: SandboxPolicy): string {
  const list = (prefix: string, items: readonly Place[]) =>
    items
      .map((h, i) => (h.dir ? `(subpath (param "${prefix}${i}"))` : `(literal (param "${prefix}${i}"))`))
      .join(' ');
  const writable = p.writable.map((_, i) => `(subpath (param "W${i}"))`).join(' ');
  const hidden = list('H', p.hidden);
  const prot = list('P', p.protected ?? []);
  const roots = (p.privateRoots ?? []).map((_, i) => `(subpath (param "X${i}"))`).join(' ');
  const shown = [
    ...(p.shown ?? []).map((_, i) => `(subpath (param "S${i}"))`),
    '(subpath (param "CWD"))',
  ].join(' ');
  const readable = p.extraReadable.map((_, i) => `(subpath (param "R${i}"))`).join(' ');
  const lines = [
    '(version 1)',
    '(allow default)',
    `(deny file-write* (require-not (require-any ${writable} (subpath (param "TMP")) (literal "/dev/null") (literal "/dev/zero") (literal "/dev/stdout") (literal "/dev/stderr") (regex #"^/dev/tty") (regex #"^/dev/fd/"))))`,
  ];
  if (prot) lines.push(`(deny file-write* ${prot})`);
  if (roots) lines.push(`(deny file-read-data ${roots})`, `(allow file-read-data ${shown} ${writable})`);
  if (hidden) lines.push(`(deny file-read* (require-any ${hidden}))`);
  if (readable) lines.push(`(allow file-read* ${readable})`);
  lines.push('(deny network-outbound (remote unix-socket))');
  // Apple Events reach other programs (Terminal, Finder) that run outside the sandbox: the
  // counterpart of the D-Bus session bus the Linux filter keeps out.
  lines.push('(deny appleevent-send)');
  if (!p.network) lines.push('(deny network-outbound (remote ip))', '(deny network-bind (local ip))');
  return lines.join('\n');
}

/** sandbox-exec arguments, ending just before the command. */
export function seatbeltArgs(p: SandboxPolicy): string[] {
  const defs = [
    ...p.writable.flatMap((w, i) => ['-D', `W${i}=${w}`]),
    ...p.hidden.flatMap((h, i) => ['-D', `H${i}=${h.path}`]),
    ...(p.protected ?? []).flatMap((e, i) => ['-D', `P${i}=${e.path}`]),
    ...(p.privateRoots ?? []).flatMap((r, i) => ['-D', `X${i}=${r}`]),
    ...(p.shown ?? []).flatMap((s, i) => ['-D', `S${i}=${s}`]),
    ...p.extraReadable.flatMap((r, i) => ['-D', `R${i}=${r}`]),
    '-D',
    `CWD=${p.cwd}`,
    '-D',
    `TMP=${p.tempDir}`,
  ];
  return ['-p', seatbeltProfile(p), ...defs];
}
