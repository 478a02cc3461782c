/**
 * Programs that run other programs. Wrappers (`sudo`, `env`, `xargs`, `timeout`, `nohup`, …) are
 * peeled off so the policy sees the real program; interpreters given code inline (`sh -c`,
 * `python -c`, `node -e`, `powershell -Command`, `eval`) or fed code through a pipe (`| sh`)
 * are indirect execution: the code cannot be checked before it runs, so it is refused.
 */
import { posix } from 'node:path';
import { quote } from 'shell-quote';
import { isDynamic, type SimpleCommand } from './shell-parse.js';
import type { Finding } from './shell-policy.js';
import { checkCodeOptions } from './shell-code-options.js';
import { RUNNERS } from './shell-rules.js';

function name(word: string): string {
  const base = word.replace(/\\/g, '/').split('/').pop() ?? word;
  return base.toLowerCase().replace(/\.(exe|cmd|bat|com)$/, '');
}

/** Skip options of a wrapper; `withValue` lists the options that take the next word. */
function skipOptions(args: string[], withValue: string[]): number {
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

/**
 * Peel wrappers off a command. Wrappers that take a command *string* (`watch`, `env -S`) and
 * `find -exec` bodies are handed to `checkInner` as command lines of their own.
 */
/** What a find -exec body sees in place of `{}`. */
const FOUND = 'found-file';

/** `;` or `+` ends a -exec body; read as cmd.exe would, `\;` leaves a lone `\` at the end. */
function endsExecBody(args: string[], i: number): boolean {
  const a = args[i];
  return a === ';' || a === '+' || a === '\\;' || (a === '\\' && i === args.length - 1);
}

export function unwrap(words: string[], checkInner: (line: string) => void): Unwrapped {
  let rest = words;
  let offset = 0;
  let admin: string | undefined;
  let viaXargs = false;
  let chdir: string | undefined;
  const drop = (n: number) => {
    rest = rest.slice(n);
    offset += n;
  };
  const finish = (words: string[]): Unwrapped => ({
    words,
    offset,
    ...(admin ? { admin } : {}),
    ...(viaXargs ? { viaXargs } : {}),
    ...(chdir !== undefined ? { chdir } : {}),
  });
  for (let guard = 0; guard < 20 && rest.length; guard++) {
    const prog = name(rest[0]!);
    const args = rest.slice(1);
    switch (prog) {
      case 'sudo':
      case 'doas':
      case 'runas':
        admin = prog;
        drop(1 + skipOptions(args, ['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U', '-T', '-c']));
        continue;
      case 'env': {
        const split = args.findIndex((a) => a === '-S' || a.startsWith('--split-string'));
        if (split >= 0) {
          checkInner(args.slice(split + 1).join(' '));
          return { words: [], offset, ...(admin ? { admin } : {}) };
        }
        let i = skipOptions(args, ['-u', '-C', '--unset', '--chdir']);
        // `env -C /` and `env --chdir=/` run the command in another folder.
        const dirs = args
          .slice(0, i)
          .flatMap((a, j) =>
            a === '-C' || a === '--chdir'
              ? [args[j + 1] ?? '']
              : a.startsWith('--chdir=')
                ? [a.slice(8)]
                : a.startsWith('-C') && a.length > 2
                  ? [a.slice(2)]
                  : [],
          );
        if (dirs.length) chdir = dirs[dirs.length - 1];
        while (i < args.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(args[i]!)) i++;
        drop(1 + i);
        continue;
      }
      case 'nice':
      case 'ionice':
      case 'chrt':
      case 'taskset':
        drop(1 + skipOptions(args, ['-n', '-c', '-p', '-t', '--cpu-list']));
        // chrt takes a priority first, taskset a mask (unless `-c list` gave it).
        if (
          (prog === 'chrt' || (prog === 'taskset' && !args.includes('-c') && !args.includes('--cpu-list'))) &&
          rest.length
        )
          drop(1);
        continue;
      case 'nohup':
      case 'builtin':
      case 'unbuffer':
      case 'busybox':
      case 'caffeinate':
      case 'time':
        drop(1 + skipOptions(args, []));
        continue;
      case 'command':
        if (args.some((a) => a === '-v' || a === '-V'))
          return { words: [], offset, ...(admin ? { admin } : {}) };
        drop(1 + skipOptions(args, []));
        continue;
      case 'exec':
        drop(1 + skipOptions(args, ['-a']));
        continue;
      case 'stdbuf':
        drop(1 + skipOptions(args, ['-i', '-o', '-e']));
        continue;
      case 'timeout':
      case 'gtimeout':
        drop(2 + skipOptions(args, ['-s', '-k', '--signal', '--kill-after']));
        continue;
      case 'chroot':
        drop(2 + skipOptions(args, ['--userspec', '--groups']));
        continue;
      case 'xargs':
        viaXargs = true;
        drop(
          1 +
            skipOptions(args, ['-I', '-L', '-n', '-P', '-d', '-E', '-s', '-a', '--arg-file', '--delimiter']),
        );
        continue;
      case 'wsl':
        drop(1 + skipOptions(args, ['-d', '-u', '--distribution', '--user', '--cd']));
        if (rest[0] === '-e' || rest[0] === '--exec') drop(1);
        continue;
      case 'strace':
      case 'ltrace':
        drop(1 + skipOptions(args, ['-o', '-e', '-p', '-s', '-u']));
        continue;
      case 'watch': {
        const i = skipOptions(args, ['-n', '--interval', '-d']);
        checkInner(args.slice(i).join(' '));
        return { words: [], offset, ...(admin ? { admin } : {}) };
      }
      case 'find': {
        // Each -exec … ; body is a command of its own (run directly, without a shell).
        for (let i = 0; i < args.length; i++) {
          if (!/^-(exec|execdir|ok|okdir)$/.test(args[i]!)) continue;
          const body: string[] = [];
          // `{}` is a file find found under its start points, which checkFind judges; here it is
          // an ordinary name (as a glob it would read as "everything in this folder").
          for (i++; i < args.length && !endsExecBody(args, i); i++)
            body.push(args[i]!.replaceAll('{}', FOUND));
          if (body.length) checkInner(quote(body));
        }
        return { words: rest, offset, ...(admin ? { admin } : {}) };
      }
      case 'su':
        admin = 'su';
        return { words: rest, offset, admin };
      case 'parallel': {
        // `parallel ::: 'cmd1' 'cmd2'`: with no command of its own, each value is a command line.
        const first = skipOptions(args, ['-j', '--jobs', '-S', '--sshlogin', '-a', '--arg-file']);
        if (args[first] === ':::') {
          for (const line of args.slice(first + 1)) if (line !== ':::') checkInner(line);
          return { words: [], offset, ...(admin ? { admin } : {}) };
        }
        return finish(rest);
      }
      default:
        return finish(rest);
    }
  }
  return finish(rest);
}

const SHELLS = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'mksh',
  'pdksh',
  'oksh',
  'lksh',
  'yash',
  'fish',
  'csh',
  'tcsh',
  'ash',
  'rbash',
  'posh',
  'elvish',
  'nu',
  'xonsh',
]);

export function refuse(rule: string, key: Finding['key'], params: Record<string, string>): Finding {
  return { level: 'refuse', rule, key, params };
}

/**
 * Scan short-option clusters for a letter that means "run this code". `valueLetters` take the
 * rest of the cluster as their value (python's `-Wonce` is not `-c`).
 */
function inlineFlag(
  args: string[],
  codeLetters: string,
  valueLetters: string,
  longCode: string[],
  longValue: string[] = [],
): { flag?: string; script?: string } {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      const next = args[i + 1];
      // `sh --` reads its input; `bash -- -c …` is no script name a person would use.
      if (next === undefined) return {};
      return next.startsWith('-') && next !== '-' ? { flag: `-- ${next}` } : { script: next };
    }
    // `+e`, `+x`: set options off; they take no value.
    if (/^\+[a-zA-Z]+$/.test(a)) continue;
    if (a.startsWith('--')) {
      const key = a.split('=')[0]!;
      if (longCode.includes(key)) return { flag: key };
      if (longValue.includes(key) && !a.includes('=')) i++;
      continue;
    }
    if (!a.startsWith('-') || a === '-') return { script: a };
    for (const letter of a.slice(1)) {
      if (codeLetters.includes(letter)) return { flag: a };
      if (valueLetters.includes(letter)) {
        if (a.endsWith(letter)) i++;
        break;
      }
    }
  }
  return {};
}

/** `-`, `/dev/stdin`, `/dev/./stdin`, `/dev/fd/3`, `/proc/self/fd/0`: code arriving on a descriptor. */
export function isStdinScript(word: string): boolean {
  if (word === '-') return true;
  const p = posix.normalize(word.replace(/\\/g, '/'));
  return /^\/dev\/(stdin|fd\/\d+)$/.test(p) || /^\/proc\/[^/]+\/fd\/\d+$/.test(p);
}

/** Is this program running code that cannot be seen in the command line? */
export function checkIndirect(prog: string, args: string[], cmd: SimpleCommand): Finding | undefined {
  const fedByInput = cmd.piped || cmd.redirects.some((r) => ['<', '<<', '<<<', '<>', '<&'].includes(r.op));
  const interpreter = (flag: { flag?: string; script?: string }): Finding | undefined => {
    if (flag.flag) return refuse('inline-code', 'shell.refuse.inline', { program: prog, flag: flag.flag });
    const script = flag.script;
    if (script !== undefined && (isStdinScript(script) || isDynamic(script))) {
      return refuse('piped-code', 'shell.refuse.piped', { program: prog });
    }
    if (script === undefined && fedByInput)
      return refuse('piped-code', 'shell.refuse.piped', { program: prog });
    return undefined;
  };

  const code = checkCodeOptions(prog, args);
  if (code) return code;
  if (
    prog === 'parallel' &&
    fedByInput &&
    (args.find((a) => !a.startsWith('-')) ?? ':::') === ':::' &&
    !args.includes(':::')
  ) {
    return refuse('piped-code', 'shell.refuse.piped', { program: prog });
  }
  if (prog === 'eval' || prog === 'iex' || prog === 'invoke-expression') {
    return refuse('eval', 'shell.refuse.eval', { program: prog });
  }
  if (prog === 'source' || prog === '.') {
    const file = args[0] ?? '';
    if (!file || isStdinScript(file) || isDynamic(file) || fedByInput) {
      return refuse('piped-code', 'shell.refuse.piped', { program: prog });
    }
    return undefined;
  }
  if (SHELLS.has(prog)) {
    return interpreter(
      inlineFlag(args, 'cs', 'o', ['--command', '--init-command'], ['--rcfile', '--init-file']),
    );
  }
  if (/^(python|pypy)[0-9.]*[mw]?$/.test(prog)) {
    const f = inlineFlag(args, 'c', 'WXmQ', []);
    if (!f.flag && args.some((a) => a === '-m')) return undefined;
    return interpreter(f);
  }
  if (['node', 'nodejs', 'bun', 'tsx', 'ts-node'].includes(prog)) {
    return interpreter(
      inlineFlag(args, 'ep', 'r', ['--eval', '--print'], ['--require', '--import', '--loader']),
    );
  }
  if (prog === 'deno') {
    if (args[0] === 'eval')
      return refuse('inline-code', 'shell.refuse.inline', { program: prog, flag: 'eval' });
    if (args[0] === 'run') return interpreter(inlineFlag(args.slice(1), '', '', []));
    return undefined;
  }
  if (prog === 'perl' || prog === 'ruby') return interpreter(inlineFlag(args, 'eE', 'IMmx', []));
  if (prog === 'php') return interpreter(inlineFlag(args, 'rBRE', 'dcz', []));
  if (['lua', 'luajit', 'rscript', 'r', 'osascript', 'julia', 'tclsh', 'wish'].includes(prog)) {
    return interpreter(inlineFlag(args, 'e', 'l', ['--eval']));
  }
  if (['su', 'script', 'expect', 'flock'].includes(prog)) {
    const f = args.find(
      (a) => a === '-c' || a === '--command' || a === '--session-command' || /^-[a-z]*c$/.test(a),
    );
    if (f) return refuse('inline-code', 'shell.refuse.inline', { program: prog, flag: f });
    return undefined;
  }
  if (prog === 'cmd') {
    const f = args.find((a) => /^\/[ckr]/i.test(a));
    if (f) return refuse('inline-code', 'shell.refuse.inline', { program: prog, flag: f.slice(0, 2) });
    return fedByInput ? refuse('piped-code', 'shell.refuse.piped', { program: prog }) : undefined;
  }
  if (prog === 'powershell' || prog === 'pwsh') return checkPowerShell(prog, args, fedByInput);
  if (['awk', 'gawk', 'mawk', 'nawk'].includes(prog)) {
    const i = skipOptions(args, ['-F', '-v', '-f', '--field-separator', '--assign', '--file']);
    const files = args.flatMap((a, j) =>
      a === '-f' || a === '--file'
        ? [args[j + 1] ?? '']
        : a.startsWith('--file=')
          ? [a.slice(7)]
          : a.startsWith('-f') && a.length > 2
            ? [a.slice(2)]
            : [],
    );
    if (files.some((f) => isStdinScript(f) || isDynamic(f)))
      return refuse('piped-code', 'shell.refuse.piped', { program: prog });
    if (files.length) return undefined;
    const program = args[i] ?? '';
    if (/\bsystem\s*\(|\|\s*getline|\|&|\bprint[f]?\b[^;}]*\|\s*["\w$]/.test(program)) {
      return refuse('awk-system', 'shell.refuse.awk', { program: prog });
    }
    return undefined;
  }
  return undefined;
}

function checkPowerShell(prog: string, args: string[], fedByInput: boolean): Finding | undefined {
  const withValue = [
    'executionpolicy',
    'ex',
    'ep',
    'windowstyle',
    'w',
    'configurationname',
    'workingdirectory',
    'wd',
    'outputformat',
    'of',
    'inputformat',
    'if',
    'version',
    'v',
    'settingsfile',
  ];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-') return refuse('piped-code', 'shell.refuse.piped', { program: prog });
    if (/^[-/]/.test(a)) {
      const p = a.slice(1).split(':')[0]!.toLowerCase();
      if (p && ('command'.startsWith(p) || 'encodedcommand'.startsWith(p) || p === 'ec' || p === 'enc')) {
        return refuse('inline-code', 'shell.refuse.inline', { program: prog, flag: a });
      }
      if (p && 'file'.startsWith(p)) return undefined;
      if (withValue.includes(p)) i++;
      continue;
    }
    // A bare argument is a command (Windows PowerShell) or a script file (pwsh).
    if (/\.ps1$/i.test(a)) return undefined;
    return refuse('inline-code', 'shell.refuse.inline', { program: prog, flag: a });
  }
  return fedByInput ? refuse('piped-code', 'shell.refuse.piped', { program: prog }) : undefined;
}

/** A program that runs code or other programs (so the general rule looks at it). */
export function isRunner(prog: string): boolean {
  return RUNNERS.has(prog) || SHELLS.has(prog) || /^(python|pypy)[0-9.]*[mw]?$/.test(prog);
}
