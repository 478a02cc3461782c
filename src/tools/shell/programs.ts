import { checkCodeOptions, optionValues } from './code-options.js';
import type { Finding } from './findings.js';
import { isStdinScript, refuse } from './findings.js';
import { isDynamic, type SimpleCommand } from './parse.js';
import { RUNNERS } from './rules.js';
import { skipOptions } from './wrappers.js';

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
): InlineFlag {
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

type InlineFlag = { flag?: string; script?: string };

/** An interpreter's options, for `inlineFlag`: letters that run code, letters that take a value. */
interface Interpreter {
  test: (prog: string) => boolean;
  codeLetters: string;
  valueLetters: string;
  longCode: string[];
  longValue?: string[];
  /** `python -m module` runs a module, not inline code. */
  modules?: boolean;
}

const isPython = (prog: string) => /^(python|pypy)[0-9.]*[mw]?$/.test(prog);
const among =
  (...names: string[]) =>
  (prog: string) =>
    names.includes(prog);

const INTERPRETERS: readonly Interpreter[] = [
  {
    test: (prog) => SHELLS.has(prog),
    codeLetters: 'cs',
    valueLetters: 'o',
    longCode: ['--command', '--init-command'],
    longValue: ['--rcfile', '--init-file'],
  },
  { test: isPython, codeLetters: 'c', valueLetters: 'WXmQ', longCode: [], modules: true },
  {
    test: among('node', 'nodejs', 'bun', 'tsx', 'ts-node'),
    codeLetters: 'ep',
    valueLetters: 'r',
    longCode: ['--eval', '--print'],
    longValue: ['--require', '--import', '--loader'],
  },
  { test: among('perl', 'ruby'), codeLetters: 'eE', valueLetters: 'IMmx', longCode: [] },
  { test: among('php'), codeLetters: 'rBRE', valueLetters: 'dcz', longCode: [] },
  {
    test: among('lua', 'luajit', 'rscript', 'r', 'osascript', 'julia', 'tclsh', 'wish'),
    codeLetters: 'e',
    valueLetters: 'l',
    longCode: ['--eval'],
  },
];

/** Programs with a rule of their own for code they are given. */
type RunnerCheck = (prog: string, args: string[], fedByInput: boolean) => Finding | undefined;

const piped = (prog: string) => refuse('piped-code', 'shell.refuse.piped', { program: prog });

const RUNNER_CHECKS = new Map<string, RunnerCheck>([
  ['parallel', checkParallel],
  ['eval', (prog) => refuse('eval', 'shell.refuse.eval', { program: prog })],
  ['iex', (prog) => refuse('eval', 'shell.refuse.eval', { program: prog })],
  ['invoke-expression', (prog) => refuse('eval', 'shell.refuse.eval', { program: prog })],
  ['source', checkSource],
  ['.', checkSource],
  ['deno', checkDeno],
  ['su', checkCommandOption],
  ['script', checkCommandOption],
  ['expect', checkCommandOption],
  ['flock', checkCommandOption],
  ['cmd', checkCmd],
  ['powershell', checkPowerShell],
  ['pwsh', checkPowerShell],
  ['awk', checkAwk],
  ['gawk', checkAwk],
  ['mawk', checkAwk],
  ['nawk', checkAwk],
]);

/** Is this program running code that cannot be seen in the command line? */
export function checkIndirect(prog: string, args: string[], cmd: SimpleCommand): Finding | undefined {
  const fedByInput = cmd.piped || cmd.redirects.some((r) => ['<', '<<', '<<<', '<>', '<&'].includes(r.op));
  const code = checkCodeOptions(prog, args);
  if (code) return code;
  const own = RUNNER_CHECKS.get(prog);
  if (own) return own(prog, args, fedByInput);
  const spec = INTERPRETERS.find((i) => i.test(prog));
  if (!spec) return undefined;
  const flag = inlineFlag(args, spec.codeLetters, spec.valueLetters, spec.longCode, spec.longValue);
  if (spec.modules && !flag.flag && args.some((a) => a === '-m')) return undefined;
  return interpreterVerdict(prog, flag, fedByInput);
}

/** Code given inline, or a script read from a descriptor or the input, cannot be checked. */
function interpreterVerdict(prog: string, flag: InlineFlag, fedByInput: boolean): Finding | undefined {
  if (flag.flag) return refuse('inline-code', 'shell.refuse.inline', { program: prog, flag: flag.flag });
  const script = flag.script;
  if (script !== undefined && (isStdinScript(script) || isDynamic(script))) return piped(prog);
  if (script === undefined && fedByInput) return piped(prog);
  return undefined;
}

/** `… | parallel` with no command of its own runs each input line. */
function checkParallel(prog: string, args: string[], fedByInput: boolean): Finding | undefined {
  const noCommand = (args.find((a) => !a.startsWith('-')) ?? ':::') === ':::' && !args.includes(':::');
  return fedByInput && noCommand ? piped(prog) : undefined;
}

function checkSource(prog: string, args: string[], fedByInput: boolean): Finding | undefined {
  const file = args[0] ?? '';
  return !file || isStdinScript(file) || isDynamic(file) || fedByInput ? piped(prog) : undefined;
}

function checkDeno(prog: string, args: string[], fedByInput: boolean): Finding | undefined {
  if (args[0] === 'eval')
    return refuse('inline-code', 'shell.refuse.inline', { program: prog, flag: 'eval' });
  if (args[0] === 'run') return interpreterVerdict(prog, inlineFlag(args.slice(1), '', '', []), fedByInput);
  return undefined;
}

/** `su -c`, `script -c`, `flock -c`: a command line as an option's value. */
function checkCommandOption(prog: string, args: string[]): Finding | undefined {
  const f = args.find(
    (a) => a === '-c' || a === '--command' || a === '--session-command' || /^-[a-z]*c$/.test(a),
  );
  return f ? refuse('inline-code', 'shell.refuse.inline', { program: prog, flag: f }) : undefined;
}

function checkCmd(prog: string, args: string[], fedByInput: boolean): Finding | undefined {
  const f = args.find((a) => /^\/[ckr]/i.test(a));
  if (f) return refuse('inline-code', 'shell.refuse.inline', { program: prog, flag: f.slice(0, 2) });
  return fedByInput ? piped(prog) : undefined;
}

function checkAwk(prog: string, args: string[]): Finding | undefined {
  const i = skipOptions(args, ['-F', '-v', '-f', '--field-separator', '--assign', '--file']);
  const files = optionValues(args, ['-f', '--file']).map((o) => o.value);
  if (files.some((f) => isStdinScript(f) || isDynamic(f))) return piped(prog);
  if (files.length) return undefined;
  const program = args[i] ?? '';
  if (/\bsystem\s*\(|\|\s*getline|\|&|\bprint[f]?\b[^;}]*\|\s*["\w$]/.test(program)) {
    return refuse('awk-system', 'shell.refuse.awk', { program: prog });
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
    if (a === '-') return piped(prog);
    if (/^[-/]/.test(a)) {
      const p = a.slice(1).split(':')[0]!.toLowerCase();
      if (p && ('command'.startsWith(p) || 'encodedcommand'.startsWith(p) || p === 'ec' || p === 'enc')) {
        return refuse('inline-code', 'shell.refuse.inline', { program: prog, flag: a });
      }
      // A script file: no PowerShell grammar reads it here, so what it does cannot be checked.
      if (p && 'file'.startsWith(p))
        return refuse('script-file', 'shell.refuse.scriptUnseen', { file: args[i + 1] ?? '' });
      if (withValue.includes(p)) i++;
      continue;
    }
    // A bare argument is a command (Windows PowerShell) or a script file (pwsh).
    if (/\.ps1$/i.test(a)) return refuse('script-file', 'shell.refuse.scriptUnseen', { file: a });
    return refuse('inline-code', 'shell.refuse.inline', { program: prog, flag: a });
  }
  return fedByInput ? piped(prog) : undefined;
}

/** The script file an interpreter or `source` is given to run (`bash run.sh`, `python3 x.py`). */
export function scriptOperand(prog: string, args: string[]): string | undefined {
  if (prog === 'source' || prog === '.') return args[0];
  const spec = INTERPRETERS.find((i) => i.test(prog));
  if (!spec || (spec.modules && args.includes('-m'))) return undefined;
  // `bash --rcfile x.sh -i` runs x.sh first.
  if (SHELLS.has(prog)) {
    const rc = optionValues(args, ['--rcfile', '--init-file'])[0];
    if (rc) return rc.value;
  }
  const flag = inlineFlag(args, spec.codeLetters, spec.valueLetters, spec.longCode, spec.longValue);
  return flag.flag ? undefined : flag.script;
}

/** A shell, or `source`: what it runs is a shell script the policy can read. */
export function runsShellScript(prog: string): boolean {
  return SHELLS.has(prog) || prog === 'source' || prog === '.';
}

/** A program that runs code or other programs (so the general rule looks at it). */
export function isRunner(prog: string): boolean {
  return RUNNERS.has(prog) || SHELLS.has(prog) || /^(python|pypy)[0-9.]*[mw]?$/.test(prog);
}
