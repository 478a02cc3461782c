/**
 * Wrappers (`sudo`, `env`, `xargs`, `timeout`, `nohup`, …) run the program named after them: they
 * are peeled off so the policy sees the real program. Wrappers that take a command line of their
 * own (`watch`, `env -S`, `find -exec`, `parallel :::`) hand it to be checked by itself.
 */
import { quote } from 'shell-quote';
import { optionValues } from './code-options.js';

function name(word: string): string {
  const base = word.replace(/\\/g, '/').split('/').pop() ?? word;
  return base.toLowerCase().replace(/\.(exe|cmd|bat|com)$/, '');
}

/** Skip options of a wrapper; `withValue` lists the options that take the next word. */
export function skipOptions(args: string[], withValue: string[]): number {
  let i = 0;
  while (i < args.length) {
    const a = args[i]!;
    if (a === '--') return i + 1;
    if (!a.startsWith('-') || a === '-') return i;
    i += withValue.includes(a) ? 2 : 1;
  }
  return i;
}

export interface Unwrapped {
  words: string[];
  /** How many words were peeled off the front. */
  offset: number;
  /** A wrapper that grants administrator rights (sudo, doas, su, runas). */
  admin?: string;
  /** `xargs` adds arguments read at run time. */
  viaXargs?: boolean;
  /** A wrapper runs the command in another folder (`env -C /`). */
  chdir?: string;
}

/** Wrappers whose options come before the command; `withValue` options take the next word. */
interface Wrapper {
  withValue: string[];
  /** Words the wrapper takes after its options (`timeout 5`, `chroot /srv`). */
  operands?: number;
  /** The wrapper grants administrator rights. */
  admin?: boolean;
  /** The wrapper adds arguments read at run time. */
  viaXargs?: boolean;
}

const PLAIN: Wrapper = { withValue: [] };
const NICE: Wrapper = { withValue: ['-n', '-c', '-p', '-t', '--cpu-list'] };
const SUDO: Wrapper = {
  withValue: ['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U', '-T', '-c'],
  admin: true,
};
const TIMEOUT: Wrapper = { withValue: ['-s', '-k', '--signal', '--kill-after'], operands: 1 };
const TRACE: Wrapper = { withValue: ['-o', '-e', '-p', '-s', '-u'] };

const WRAPPERS = new Map<string, Wrapper>([
  ['sudo', SUDO],
  ['doas', SUDO],
  ['runas', SUDO],
  ['nice', NICE],
  ['ionice', NICE],
  ['chrt', NICE],
  ['taskset', NICE],
  ['nohup', PLAIN],
  ['builtin', PLAIN],
  ['unbuffer', PLAIN],
  ['busybox', PLAIN],
  ['caffeinate', PLAIN],
  ['time', PLAIN],
  ['command', PLAIN],
  ['exec', { withValue: ['-a'] }],
  ['stdbuf', { withValue: ['-i', '-o', '-e'] }],
  ['timeout', TIMEOUT],
  ['gtimeout', TIMEOUT],
  ['chroot', { withValue: ['--userspec', '--groups'], operands: 1 }],
  [
    'xargs',
    {
      withValue: ['-I', '-L', '-n', '-P', '-d', '-E', '-s', '-a', '--arg-file', '--delimiter'],
      viaXargs: true,
    },
  ],
  ['wsl', { withValue: ['-d', '-u', '--distribution', '--user', '--cd'] }],
  ['strace', TRACE],
  ['ltrace', TRACE],
]);

/** What has been peeled off so far. */
interface Peeling {
  rest: string[];
  offset: number;
  admin?: string;
  viaXargs: boolean;
  chdir?: string;
}

/**
 * A wrapper with a rule of its own: the result when peeling ends at it, or undefined when
 * peeling goes on past it.
 */
type Special = (p: Peeling, args: string[], checkInner: (line: string) => void) => Unwrapped | undefined;

const SPECIAL = new Map<string, Special>([
  ['env', peelEnv],
  ['watch', peelWatch],
  ['find', peelFind],
  ['parallel', peelParallel],
  ['command', (p, args) => (args.some((a) => a === '-v' || a === '-V') ? stopped(p) : undefined)],
  ['su', (p) => ({ ...finish(p, p.rest), admin: 'su' })],
]);

function drop(p: Peeling, n: number): void {
  p.rest = p.rest.slice(n);
  p.offset += n;
}

function finish(p: Peeling, words: string[]): Unwrapped {
  return {
    words,
    offset: p.offset,
    ...(p.admin ? { admin: p.admin } : {}),
    ...(p.viaXargs ? { viaXargs: p.viaXargs } : {}),
    ...(p.chdir !== undefined ? { chdir: p.chdir } : {}),
  };
}

/** Peeling ends with nothing left to check here (the inner line was handed over). */
function stopped(p: Peeling): Unwrapped {
  return { words: [], offset: p.offset, ...(p.admin ? { admin: p.admin } : {}) };
}

/**
 * Peel wrappers off a command. Wrappers that take a command *string* (`watch`, `env -S`) and
 * `find -exec` bodies are handed to `checkInner` as command lines of their own.
 */
export function unwrap(words: string[], checkInner: (line: string) => void): Unwrapped {
  const p: Peeling = { rest: words, offset: 0, viaXargs: false };
  for (let guard = 0; guard < 20 && p.rest.length; guard++) {
    const prog = name(p.rest[0]!);
    const args = p.rest.slice(1);
    const special = SPECIAL.get(prog);
    const ended = special?.(p, args, checkInner);
    if (ended) return ended;
    const wrapper = WRAPPERS.get(prog);
    if (wrapper) {
      if (wrapper.admin) p.admin = prog;
      if (wrapper.viaXargs) p.viaXargs = true;
      drop(p, 1 + (wrapper.operands ?? 0) + skipOptions(args, wrapper.withValue));
      peelOperand(p, prog, args);
    } else if (!special) {
      return finish(p, p.rest);
    }
  }
  return finish(p, p.rest);
}

/** The word some wrappers take after their options: a priority, a mask, `wsl`'s `-e`. */
function peelOperand(p: Peeling, prog: string, args: string[]): void {
  // chrt takes a priority first, taskset a mask (unless `-c list` gave it).
  const priority =
    prog === 'chrt' || (prog === 'taskset' && !args.includes('-c') && !args.includes('--cpu-list'));
  if (priority && p.rest.length) drop(p, 1);
  if (prog === 'wsl' && (p.rest[0] === '-e' || p.rest[0] === '--exec')) drop(p, 1);
}

function peelEnv(p: Peeling, args: string[], checkInner: (line: string) => void): Unwrapped | undefined {
  // `--sp` is `--split-string` (getopt_long takes any unambiguous prefix); `-iS` clusters.
  const split = args.findIndex(
    (a) => /^-[i0v]*S/.test(a) || /^--sp(l(i(t(-(s(t(r(i(ng?)?)?)?)?)?)?)?)?)?(=|$)/.test(a),
  );
  if (split >= 0) {
    const a = args[split]!;
    const joined = a.startsWith('--') ? a.slice(a.indexOf('=') + 1 || a.length) : a.slice(a.indexOf('S') + 1);
    checkInner([joined, ...args.slice(split + 1)].filter(Boolean).join(' '));
    return stopped(p);
  }
  let i = skipOptions(args, ['-u', '-C', '--unset', '--chdir']);
  // `env -C /` and `env --chdir=/` run the command in another folder.
  const dirs = optionValues(args, ['-C', '--chdir'], i);
  if (dirs.length) p.chdir = dirs[dirs.length - 1]!.value;
  while (i < args.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(args[i]!)) i++;
  drop(p, 1 + i);
  return undefined;
}

function peelWatch(p: Peeling, args: string[], checkInner: (line: string) => void): Unwrapped {
  const i = skipOptions(args, ['-n', '--interval', '-d']);
  checkInner(args.slice(i).join(' '));
  return stopped(p);
}

/** What a find -exec body sees in place of `{}`. */
const FOUND = 'found-file';

/** `;` or `+` ends a -exec body; read as cmd.exe would, `\;` leaves a lone `\` at the end. */
function endsExecBody(args: string[], i: number): boolean {
  const a = args[i];
  return a === ';' || a === '+' || a === '\\;' || (a === '\\' && i === args.length - 1);
}

function peelFind(p: Peeling, args: string[], checkInner: (line: string) => void): Unwrapped {
  // Each -exec … ; body is a command of its own (run directly, without a shell). `{}` is a file
  // find found under its start points, which checkFind judges; here it is an ordinary name (as a
  // glob it would read as "everything in this folder").
  for (let i = 0; i < args.length; i++) {
    if (!/^-(exec|execdir|ok|okdir)$/.test(args[i]!)) continue;
    const body: string[] = [];
    for (i++; i < args.length && !endsExecBody(args, i); i++) body.push(args[i]!.replaceAll('{}', FOUND));
    if (body.length) checkInner(quote(body));
  }
  // What the wrappers before it said still holds: `env -C / find . -delete` searches from /.
  return finish(p, p.rest);
}

function peelParallel(p: Peeling, args: string[], checkInner: (line: string) => void): Unwrapped {
  // `parallel ::: 'cmd1' 'cmd2'`: with no command of its own, each value is a command line.
  const first = skipOptions(args, ['-j', '--jobs', '-S', '--sshlogin', '-a', '--arg-file']);
  if (args[first] === ':::') {
    for (const line of args.slice(first + 1)) if (line !== ':::') checkInner(line);
    return stopped(p);
  }
  return finish(p, p.rest);
}
