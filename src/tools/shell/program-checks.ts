/**
 * Refusals for programs that run a command later or elsewhere (`at`, `crontab`, `tmux new -d`,
 * `ssh host …`), that have a command language of their own (`sqlite3 .shell`, `gdb -ex`), that
 * stop everything (`killall5`) or change the running system, and for writes to the files that
 * run at log-in (`> ~/.bashrc`). The data lives in program-rules.ts, file-rules.ts and
 * long-options.ts.
 */
import { optionValues } from './code-options.js';
import {
  ARCHIVE_DELETES,
  FILE_CHANGERS,
  FILE_WRITERS,
  INTO_OPTIONS,
  KERNEL_FILES,
  OUTPUT_OPTIONS,
  STARTUP_FILES,
} from './file-rules.js';
import type { Finding } from './findings.js';
import { isStdinScript, refuse } from './findings.js';
import { LONG_OPTIONS } from './long-options.js';
import { isDynamic, type SimpleCommand, showWord } from './parse.js';
import {
  AT_READ_ONLY,
  CODE_VARIABLES,
  COMMAND_FILE_OPTIONS,
  GIT_RUNS,
  INPUT_RUNNERS,
  KILL_EVERYTHING,
  PYTHON_REPL_MODULES,
  SCHEDULERS,
  SQL_CLIENT_SHELL,
  SQLITE_CODE_OPTIONS,
  SQLITE_RUNS,
  SYSTEM_CHANGERS,
  TMUX_RUNS,
  TMUX_VALUE_OPTIONS,
} from './program-rules.js';
import { GIT_CODE_KEYS } from './rules.js';
import { absolutePaths, classifyTarget, isSystemFile, type PathContext } from './targets.js';
import { skipOptions } from './wrappers.js';

/** `--rec` → `--recursive`: a prefix naming exactly one long option of the program, as getopt_long reads it. */
export function expandLongOptions(name: string, args: string[]): string[] {
  const known = LONG_OPTIONS[name];
  if (!known) return args;
  const end = args.indexOf('--');
  return args.map((a, i) => {
    if ((end >= 0 && i >= end) || !a.startsWith('--') || a === '--') return a;
    const eq = a.indexOf('=');
    const key = eq < 0 ? a : a.slice(0, eq);
    if (known.includes(key)) return a;
    const matches = known.filter((o) => o.startsWith(key));
    return matches.length === 1 ? matches[0]! + (eq < 0 ? '' : a.slice(eq)) : a;
  });
}

interface Call {
  name: string;
  args: string[];
  cmd: SimpleCommand;
  ctx: PathContext;
  /** A pipe, a redirect or a here-string feeds the command's input. */
  fed: boolean;
}

type Check = (c: Call) => Finding | undefined;

const later = (program: string) => refuse('run-later', 'shell.refuse.later', { program });
const elsewhere = (program: string) => refuse('detached', 'shell.refuse.detached', { program });

const scheduled: Check = ({ name, args }) => {
  if (SCHEDULERS.has(name)) return later(name);
  if (name === 'at' && !(args.length && args.every((a) => AT_READ_ONLY.test(a)))) return later(name);
  if (name === 'crontab') {
    // `crontab -l` lists; `-r` removes every job; a file or `-` replaces them all.
    const i = skipOptions(args, ['-u']);
    if (args.includes('-r') || args.includes('-ir') || args[i] !== undefined) return later('crontab');
  }
  if (name === 'systemd-run' && args.some((a) => /^--on-/.test(a))) return later(name);
  return undefined;
};

const detached: Check = ({ name, args }) => {
  if (name === 'tmux') {
    if (args.some((a) => /^-[A-Za-z]*c/.test(a) && !TMUX_VALUE_OPTIONS.includes(a)))
      return elsewhere('tmux -c');
    const sub = args[skipOptions(args, TMUX_VALUE_OPTIONS)];
    if (sub !== undefined && TMUX_RUNS.has(sub)) return elsewhere(`tmux ${sub}`);
  }
  if (name === 'screen' && args.some((a) => /^-[A-Za-z]*[dDmX]/.test(a) && !/^-(ls|list)$/.test(a)))
    return elsewhere('screen');
  return undefined;
};

const SSH_VALUES = ['-b', '-c', '-D', '-E', '-e', '-F', '-I', '-i', '-J', '-L', '-l', '-m', '-O', '-o', '-p'];

/** `ssh host 'cmd'` runs a command on another computer (maybe this one), out of sight. */
const remote: Check = ({ name, args, fed }) => {
  if (name !== 'ssh') return undefined;
  const host = skipOptions(args, [...SSH_VALUES, '-Q', '-R', '-S', '-W', '-w']);
  if (host >= args.length) return undefined;
  return host + 1 < args.length || fed
    ? refuse('remote', 'shell.refuse.remote', { program: name })
    : undefined;
};

/** sqlite3's dot-commands `.shell`, `.system`, `.load`, `.output |…` run programs. */
const sqlite: Check = ({ name, args, fed }) => {
  if (name !== 'sqlite3' && name !== 'sqlite') return undefined;
  const inline = (flag: string) => refuse('inline-code', 'shell.refuse.inline', { program: name, flag });
  const option = optionValues(args, SQLITE_CODE_OPTIONS)[0];
  if (option && (option.flag.includes('init') || SQLITE_RUNS.test(option.value))) return inline(option.flag);
  const dot = args.find((a) => SQLITE_RUNS.test(a));
  if (dot) return inline(dot.trim().split(/\s/)[0]!);
  // Its input may hold dot-commands too.
  return fed ? refuse('piped-code', 'shell.refuse.piped', { program: name }) : undefined;
};

/** `echo '!rm -rf ~' | ed`, `mysql -e '\\! rm …'`: a command language that runs programs. */
const inputRunner: Check = ({ name, args, fed }) => {
  if (['mysql', 'mariadb', 'psql'].includes(name) && args.some((a) => SQL_CLIENT_SHELL.test(a)))
    return refuse('inline-code', 'shell.refuse.inline', { program: name, flag: '\\!' });
  return fed && INPUT_RUNNERS.has(name)
    ? refuse('piped-code', 'shell.refuse.piped', { program: name })
    : undefined;
};

/** `make -f /dev/stdin`, `gdb -x -`: a file of commands arriving on the input. */
const commandFile: Check = ({ name, args, fed }) => {
  const names = COMMAND_FILE_OPTIONS[name];
  if (!names) return undefined;
  const files = optionValues(args, names).map((o) => o.value);
  const hidden = files.some((f) => isStdinScript(f) || isDynamic(f) || (f === '' && fed));
  return hidden || args.some((a) => a === '--eval' || a.startsWith('--eval=') || /^-E/.test(a))
    ? refuse('piped-code', 'shell.refuse.piped', { program: name })
    : undefined;
};

/** `… | python3 -m code`: an interactive interpreter reading code from its input. */
const pythonRepl: Check = ({ name, args, fed }) => {
  if (!fed || !/^(python|pypy)[0-9.]*[mw]?$/.test(name)) return undefined;
  const module = optionValues(args, ['-m'])[0]?.value;
  return module !== undefined && PYTHON_REPL_MODULES.has(module)
    ? refuse('piped-code', 'shell.refuse.piped', { program: `${name} -m ${module}` })
    : undefined;
};

/** `git rebase -x …`, `git bisect run …`, `git config core.pager …`: git runs a command line. */
const gitRuns: Check = ({ name, args }) => {
  if (name !== 'git') return undefined;
  const at = args.findIndex((a, i) => !a.startsWith('-') && !['-C', '-c'].includes(args[i - 1] ?? ''));
  const sub = args[at];
  const rest = args.slice(at + 1);
  const inline = (flag: string) =>
    refuse('inline-code', 'shell.refuse.inline', { program: `git ${sub}`, flag });
  const runs = sub === undefined ? undefined : GIT_RUNS[sub];
  const hit = runs && rest.find((a) => runs.test(a));
  if (hit) return inline(hit);
  if (sub === 'config') {
    const [key, value] = rest.filter((a) => !a.startsWith('-'));
    if (key && value !== undefined && GIT_CODE_KEYS.some((re) => re.test(`${key}=${value}`)))
      return inline(key);
  }
  return undefined;
};

/** `ex -sc '…'`, `vim -S x.vim`, `vim -u x.vim`: Vim commands include `:!`. */
const vimCommands: Check = ({ name, args }) => {
  if (!['vim', 'vi', 'nvim', 'view', 'ex', 'vimdiff', 'gvim'].includes(name)) return undefined;
  const hit = args.find((a) => /^-[a-zA-Z]*c$/.test(a) || a === '-S' || a === '-u' || /^--cmd/.test(a));
  return hit ? refuse('inline-code', 'shell.refuse.inline', { program: name, flag: hit }) : undefined;
};

const PKILL_VALUES = [
  '-u',
  '-U',
  '-g',
  '-G',
  '-P',
  '-s',
  '-t',
  '-F',
  '--signal',
  '-o',
  '-y',
  '--older-than',
  '--younger-than',
  '-n',
  '--ns',
  '--nslist',
  '--user',
  '--euid',
  '--uid',
  '--group',
  '--parent',
  '--session',
  '--terminal',
];

/** Windows' own processes: ending one stops or restarts the computer. */
const CRITICAL_PROCESS = /^(lsass|csrss|wininit|winlogon|smss|services|svchost|lsaiso)(\.exe)?$/i;

const killEverything: Check = ({ name, args }) => {
  if (KILL_EVERYTHING.has(name)) return refuse('kill-all', 'shell.refuse.killAll');
  if (name === 'kill' && args.some((a) => a === '1')) return refuse('kill-all', 'shell.refuse.killAll');
  // Windows: `wmic process delete` (no `where`), `taskkill /fi "USERNAME eq ann"` (no image or pid).
  const lower = args.map((a) => a.toLowerCase());
  if (
    name === 'wmic' &&
    lower.includes('process') &&
    !lower.includes('where') &&
    lower.some((a) => /^(delete|call)$/.test(a))
  )
    return refuse('kill-all', 'shell.refuse.killAll');
  if (
    name === 'taskkill' &&
    lower.some((a) => /username|session/.test(a)) &&
    !lower.some((a) => a === '/im' || a === '/pid')
  )
    return refuse('kill-all', 'shell.refuse.killAll');
  // `taskkill /f /im lsass.exe`: a process Windows cannot run without (it stops or restarts at once).
  const image = name === 'taskkill' ? lower[lower.indexOf('/im') + 1] : undefined;
  if (lower.includes('/im') && image && CRITICAL_PROCESS.test(image))
    return refuse('kill-critical', 'shell.refuse.killCritical', { name: showWord(image) });
  if (name !== 'pkill' && name !== 'killall') return undefined;
  // `pkill -u ann` with no name: every process of the user (and this session with it).
  const byUser = args.some((a) => /^(-u|--user|--euid|--uid|-U)(=|$)/.test(a) || /^-u./.test(a));
  const names = args.filter((a, i) => !a.startsWith('-') && !PKILL_VALUES.includes(args[i - 1] ?? ''));
  // `pkill -f .`, `killall -r '.*'`: a pattern that matches every process.
  const everything = names.some((n) => /^(\^?\.[*+]?\$?|\^|\$|)$/.test(n));
  return (byUser && !names.length) || everything ? refuse('kill-all', 'shell.refuse.killAll') : undefined;
};

const systemChange: Check = ({ name, args }) => {
  const pattern = SYSTEM_CHANGERS[name];
  if (!pattern) return undefined;
  if (pattern.source === '.' || args.some((a) => pattern.test(a)))
    return refuse('system', 'shell.refuse.system', { program: name });
  return undefined;
};

/** The files a command changes: every operand, or the last one (`cp a b`), or an output option. */
function changedFiles(name: string, args: string[]): string[] {
  // `copy a b /y`: Windows options start with `/`.
  const windows = name === 'copy' || name === 'xcopy';
  const operands = args.filter((a) => !a.startsWith('-') && !(windows && /^\/[a-z0-9:-]+$/i.test(a)));
  if (FILE_CHANGERS.has(name)) return operands;
  if (FILE_WRITERS.has(name)) {
    const target = optionValues(args, ['-t', '--target-directory']).map((o) => o.value);
    return target.length ? target : operands.slice(-1);
  }
  if (name === 'sed' && args.some((a) => a.startsWith('--in-place') || /^-[a-zA-Z]*i/.test(a)))
    return operands;
  if (
    /^g?awk$/.test(name) &&
    args.some((a, i) => a === 'inplace' && ['-i', '--include'].includes(args[i - 1] ?? ''))
  )
    return operands.slice(2);
  if (name === 'dd') return args.filter((a) => a.startsWith('of=')).map((a) => a.slice(3));
  const output = OUTPUT_OPTIONS[name];
  return output ? optionValues(args, output).map((o) => o.value) : [];
}

const startupOrSystem: Check = ({ name, args, ctx }) => {
  for (const file of changedFiles(name, args)) {
    const finding = writeTarget(file, ctx);
    if (finding) return finding;
    if (!FILE_CHANGERS.has(name) && isSystemFile(file))
      return refuse('redirect-critical', 'shell.refuse.deleteRoot', { target: showWord(file) });
  }
  return undefined;
};

/** `rsync --delete empty/ ~/` empties the folder it copies into. */
const syncOver: Check = ({ name, args, ctx }) => {
  if (name !== 'rsync' || !args.some((a) => a.startsWith('--del'))) return undefined;
  const target = args.filter((a) => !a.startsWith('-')).pop();
  return target !== undefined && classifyTarget(target, ctx) === 'critical'
    ? refuse('mirror', 'shell.refuse.mirror', { target: showWord(target), flag: '--delete' })
    : undefined;
};

/** `tar --remove-files … ~`, `zip -m x.zip ~`: archived, then deleted. */
const archiveDeletes: Check = ({ name, args, ctx }) => {
  const option = ARCHIVE_DELETES[name];
  if (!option || !args.some((a) => option.test(a))) return undefined;
  const target = args.find((a) => !a.startsWith('-') && classifyTarget(a, ctx) === 'critical');
  return target
    ? refuse('delete-critical', 'shell.refuse.deleteRoot', { target: showWord(target) })
    : undefined;
};

/** `cp -r dotfiles/. ~`, `tar -xf x.tar -C ~`: a whole folder poured into the home folder. */
const intoHome: Check = ({ name, args, ctx }) => {
  let into: string[] = [];
  const recursive = args.some((a) => /^-[a-zA-Z]*[rRa]/.test(a) || a === '--recursive' || a === '--archive');
  if ((name === 'cp' && recursive) || name === 'rsync') into = changedFiles(name, args);
  const option = INTO_OPTIONS[name];
  if (option) into = optionValues(args, option).map((o) => o.value);
  const home = ctx.home.replace(/\/+$/, '');
  const target = into.find((t) => absolutePaths(t, ctx).some((p) => p.replace(/\/+$/, '') === home));
  return target ? refuse('into-home', 'shell.refuse.intoHome', { target: showWord(target) }) : undefined;
};

const CHECKS: readonly Check[] = [
  gitRuns,
  vimCommands,
  scheduled,
  detached,
  remote,
  sqlite,
  inputRunner,
  commandFile,
  pythonRepl,
  killEverything,
  systemChange,
];

/** Checked after the destructive rules, whose reasons are more precise (`rm -rf ~/*`, `dd of=/dev/sda`). */
const WRITE_CHECKS: readonly Check[] = [archiveDeletes, syncOver, intoHome, startupOrSystem];

/**
 * The first refusal these rules give the simple command, if any: the rules about what a program
 * runs (`phase: 'runs'`), or those about the files it writes (`phase: 'writes'`).
 */
export function checkPrograms(
  name: string,
  args: string[],
  cmd: SimpleCommand,
  ctx: PathContext,
  phase: 'runs' | 'writes' = 'runs',
): Finding | undefined {
  const fed = cmd.piped || cmd.redirects.some((r) => ['<', '<<', '<<<', '<>', '<&'].includes(r.op));
  const call: Call = { name, args, cmd, ctx, fed };
  for (const check of phase === 'runs' ? CHECKS : WRITE_CHECKS) {
    const found = check(call);
    if (found) return found;
  }
  return undefined;
}

/** `BASH_ENV=x.sh …`, `export PAGER='…'`: a variable whose value some program runs. */
export function codeVariable(names: string[]): Finding | undefined {
  const name = names.find((n) => CODE_VARIABLES.has(n));
  return name ? refuse('code-variable', 'shell.refuse.codeVariable', { name }) : undefined;
}

/**
 * A file a redirect or a command writes: refused when it runs at log-in or grants access
 * (`~/.bashrc`, `~/.ssh/authorized_keys`), or changes the running kernel (`/proc/sys/…`).
 */
export function writeTarget(word: string, ctx: PathContext): Finding | undefined {
  for (const path of absolutePaths(word, ctx)) {
    if (KERNEL_FILES.test(path)) return refuse('system', 'shell.refuse.system', { program: showWord(word) });
    if (isStartupFile(path, ctx.home))
      return refuse('startup-file', 'shell.refuse.startup', { target: showWord(word) });
    // A Windows Startup folder (the person's or everyone's): what is put there runs at sign-in.
    if (/\/start menu\/programs\/startup(\/|$)/i.test(path))
      return refuse('persistence', 'shell.refuse.persistence', { what: showWord(word) });
  }
  return undefined;
}

function isStartupFile(path: string, home: string): boolean {
  const base = home.replace(/\/+$/, '');
  if (!path.startsWith(`${base}/`)) return false;
  const rel = path.slice(base.length + 1);
  // `~/.bash*` or `~/.ssh/*`: a pattern that may name one of them.
  const pattern = /[*?[]/.test(rel) ? globToRegExp(rel) : undefined;
  return STARTUP_FILES.some((entry) => {
    const folder = entry.endsWith('/');
    const name = folder ? entry.slice(0, -1) : entry;
    if (pattern) return pattern.test(name) || (folder && pattern.test(`${name}/x`));
    return rel === name || (folder && rel.startsWith(entry));
  });
}

function globToRegExp(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|\\]/g, '\\$&')
    .replace(/\*/g, '[^/]*')
    .replace(/\?/g, '[^/]');
  return new RegExp(`^${body.replace(/\[\^\/\]\*$/, '.*')}$`);
}
