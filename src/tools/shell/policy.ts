/**
 * The shell policy (design §3): a command line is parsed into simple commands with the bash
 * grammar (shell-tree.ts; also as cmd.exe reads it when it holds `\`, `^` or `%`), and each one is
 * checked. Catastrophic commands and indirect execution are refused outright; destructive ones
 * get a warning shown before the question. Substitutions (`$(…)`, backticks) are checked as
 * commands of their own, recursively.
 */
import { homedir } from 'node:os';
import type { MessageKey } from '../../support/i18n/index.js';
import { t } from '../../support/i18n/index.js';
import { assignedThenUsed, CmdExpansionError, cmdEnv, windowsEnvFor } from './cmd-expand.js';
import { type CmdParsed, CmdParseError, parseCmdLine } from './cmd-parse.js';
import { checkDestructive } from './destructive.js';
import { isWatched } from './destructive-programs.js';
import { type Finding, refuse, warn } from './findings.js';
import {
  type Dialect,
  isDynamic,
  type ParsedLine,
  parseLine,
  programName,
  type SimpleCommand,
  SUB_PREFIX,
  showWord,
  VAR_END,
  VAR_START,
} from './parse.js';
import { checkPrograms, codeVariable, expandLongOptions, writeTarget } from './program-checks.js';
import { checkIndirect } from './programs.js';
import { NON_RUNNERS } from './rules.js';
import { checkScript } from './script-files.js';
import { secretWordIn } from './secrets.js';
import { type BundledScript, changeDir, isDiskDevice, isSystemTarget, type PathContext } from './targets.js';
import { ALTERNATIVES, parseBash, UnparsableError } from './tree.js';
import { windowsSecretIn } from './windows-egress.js';
import { longName } from './windows-families.js';
import { localBatchFile, windowsFindings } from './windows-programs.js';
import { WINDOWS_NON_RUNNERS } from './windows-rules.js';
import { unwrap } from './wrappers.js';

export type { Finding } from './findings.js';

export interface ShellVerdict {
  level: 'refuse' | 'warn' | 'allow';
  findings: Finding[];
  /** Scripts of a skill's folder the line runs, to be shown in the approval. */
  bundled?: BundledScript[];
}

export interface PolicyOptions {
  home?: string;
  cwd?: string;
  /** Where the line runs: on Windows it is read with cmd.exe's grammar (cmd-parse.ts). */
  platform?: NodeJS.Platform;
  /** The environment the command runs with (cmd.exe expands `%VAR%` from it). */
  env?: Record<string, string | undefined>;
  /** The output folder: files in it were written by the model, and are not run. */
  outputDir?: string;
  /** zhi runs as an administrator on Windows (elevation.ts): said in every question. */
  elevated?: boolean;
  /** The folders of the Agent Skills in use: their scripts are shown, not read line by line. */
  skillFolders?: readonly string[];
}

const MAX_DEPTH = 8;

/** Check a whole command line. */
export function assessCommand(line: string, opts: PolicyOptions = {}): ShellVerdict {
  const ctx: PathContext = {
    home: slash(opts.home ?? homedir()),
    cwd: slash(opts.cwd ?? process.cwd()),
    ...(opts.outputDir ? { output: slash(opts.outputDir) } : {}),
    ...(opts.skillFolders?.length ? { skillFolders: opts.skillFolders.map(slash) } : {}),
    bundled: [],
  };
  if ((opts.platform ?? process.platform) === 'win32') {
    const env = opts.env ?? (process.platform === 'win32' ? process.env : windowsEnvFor(ctx.home));
    ctx.cmd = cmdEnv(env);
  }
  const findings: Finding[] = [];
  check(line, ctx, findings, 0);
  const unique = dedupe(findings);
  // Refusals stand as they are; anything asked in an administrator's console says so first.
  if (ctx.cmd && opts.elevated && !unique.some((f) => f.level === 'refuse'))
    unique.unshift(warn('elevated', 'shell.warn.elevated'));
  const level = unique.some((f) => f.level === 'refuse') ? 'refuse' : unique.length ? 'warn' : 'allow';
  const bundled = [...new Map((ctx.bundled ?? []).map((b) => [b.path, b])).values()];
  return { level, findings: unique, ...(bundled.length ? { bundled } : {}) };
}

/** The text for a person (and the model): the first refusal, or every warning joined. */
export function describeVerdict(v: ShellVerdict): { refuse?: string; warning?: string } {
  // The most specific reason: "cannot be parsed" only when nothing better is known.
  const refusals = v.findings.filter((f) => f.level === 'refuse');
  const refusal = refusals.find((f) => f.rule !== 'unparsable') ?? refusals[0];
  if (refusal) return { refuse: t(refusal.key, refusal.params) };
  if (!v.findings.length) return {};
  const elevated = v.findings.some((f) => f.rule === 'elevated') ? t('shell.warn.elevated') : '';
  const rest = v.findings.filter((f) => f.rule !== 'elevated');
  const list = rest.map((f) => t(f.key, f.params)).join('; ');
  const header = rest.length ? t('shell.warn.header', { list }) : '';
  return { warning: [elevated, header].filter(Boolean).join(' ') };
}

function slash(p: string): string {
  return p.replace(/\\/g, '/');
}

function dedupe(findings: Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = `${f.rule}:${JSON.stringify(f.params ?? {})}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function check(line: string, ctx: PathContext, out: Finding[], depth: number): void {
  if (depth > MAX_DEPTH) {
    out.push({ level: 'refuse', rule: 'nesting', key: 'shell.refuse.nesting' });
    return;
  }
  if (ctx.cmd) {
    checkCmdLine(line, ctx, out, depth);
    return;
  }
  // The bash grammar reads the line as /bin/sh will; a line with a backslash or caret is also
  // read as cmd.exe would, so that `C:\` and `^r^m` are seen on Windows.
  const dialects: Dialect[] = /[\\^%]/.test(line) ? ['posix', 'windows'] : ['posix'];
  for (const dialect of dialects) {
    let parsed: ParsedLine;
    try {
      parsed = dialect === 'posix' ? parseBash(line) : parseLine(line, dialect);
    } catch (err) {
      if (dialect === 'windows') continue;
      if (!(err instanceof UnparsableError)) throw err;
      // Refused; but read on as cmd.exe would, so the reason can name the real danger (`C:\`).
      out.push({ level: 'refuse', rule: 'unparsable', key: 'shell.refuse.unparsable' });
      continue;
    }
    for (const sub of parsed.substitutions) check(sub, ctx, out, depth + 1);
    for (const fn of parsed.functions) {
      const recursive = fn.body.some((c) => c.words[0] === fn.name);
      if (recursive) out.push({ level: 'refuse', rule: 'fork-bomb', key: 'shell.refuse.forkBomb' });
    }
    checkCommands(parsed.commands, ctx, out, depth, dialect);
  }
  // The classic spelling, even if a parser ever reads it differently.
  if (/:\s*\(\s*\)\s*\{[^}]*:\s*\|\s*:/.test(line) || /%0\s*\|\s*%0/.test(line)) {
    out.push({ level: 'refuse', rule: 'fork-bomb', key: 'shell.refuse.forkBomb' });
  }
}

const CMD_PROBLEMS: Record<CmdParseError['problem'] | CmdExpansionError['reason'], MessageKey> = {
  'caret-end': 'shell.cmd.caretEnd',
  unbalanced: 'shell.cmd.unbalanced',
  'for-syntax': 'shell.cmd.forSyntax',
  modifier: 'shell.cmd.modifier',
  cmdcmdline: 'shell.cmd.cmdcmdline',
};

/**
 * Windows: the line is read only as cmd.exe reads it (cmd-expand.ts, cmd-parse.ts). What that
 * reading cannot follow is refused: no sandbox stands behind the question there.
 */
function checkCmdLine(line: string, ctx: PathContext, out: Finding[], depth: number): void {
  const assigned = assignedThenUsed(line);
  if (assigned !== undefined) out.push(refuse('set-then-use', 'shell.refuse.setThenUse', { name: assigned }));
  let readings: CmdParsed[];
  try {
    readings = parseCmdLine(line, ctx.cmd!, ctx.cwd.replace(/\//g, '\\'));
  } catch (err) {
    if (!(err instanceof CmdParseError || err instanceof CmdExpansionError)) throw err;
    const reason = CMD_PROBLEMS[err instanceof CmdParseError ? err.problem : err.reason];
    out.push(refuse('unparsable', 'shell.refuse.cmdUnparsable', { reason: t(reason) }));
    return;
  }
  for (const parsed of readings) {
    // `pushd C:\ & cmd /c del /s /q *`: a line run later may run in any folder the line moved to.
    const moves = parsed.commands.filter((c) => CHDIR.has(c.words[0]?.toLowerCase() ?? '') && c.words[1]);
    for (const nested of parsed.nested) {
      check(nested, ctx, out, depth + 1);
      for (const c of moves) check(`cd /d "${c.words[1]}" & ${nested}`, ctx, out, depth + 1);
    }
    checkCommands(parsed.commands, ctx, out, depth, 'windows');
  }
}

const COMPUTED = `${VAR_START}${SUB_PREFIX}input${VAR_END}`;
const CHDIR = new Set(['cd', 'pushd', 'chdir', 'set-location', 'sl']);
const DECLARE = new Set(['export', 'declare', 'typeset', 'local', 'readonly']);

/**
 * Check the commands of a line in order, following what they change for the next ones: the
 * folder (`cd / && rm -rf *`), variables (`D=/; rm -rf $D`, `for d in ~`), and the positional
 * parameters (`set -- ~; rm -rf "$@"`).
 */
function checkCommands(
  commands: SimpleCommand[],
  ctx: PathContext,
  out: Finding[],
  depth: number,
  dialect: Dialect,
): void {
  const lineWords = commands.flatMap((c) => [...c.words, ...c.redirects.map((r) => r.target)]);
  let local: PathContext = { ...ctx, vars: { ...ctx.vars }, lineWords };
  for (const cmd of commands) {
    const vars = { ...local.vars };
    for (const [name, value] of cmd.assignments) vars[name] = value;
    const assigned = cmd.assignments.map(([name]) => name);
    // `builtin cd`, `command cd`: look past the wrappers for the folder change.
    const words = unwrap(cmd.words, () => {}).words;
    const first = programName(words[0] ?? '');
    if (DECLARE.has(first)) {
      for (const w of words.slice(1)) {
        const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(w);
        if (m) {
          vars[m[1]!] = m[2]!;
          assigned.push(m[1]!);
        }
      }
    }
    const code = codeVariable(assigned);
    if (code) out.push(code);
    if (first === 'set') Object.assign(vars, positional(words.slice(1)));
    // `read d`, `mapfile a`: the values come from the input, known only when it runs.
    if (['read', 'mapfile', 'readarray'].includes(first)) {
      for (const w of words.slice(1)) if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(w)) vars[w] = COMPUTED;
    }
    local = { ...local, vars };
    if (CHDIR.has(first)) {
      const args = words.slice(1);
      const end = args.indexOf('--');
      const arg = end >= 0 ? args[end + 1] : args.find((w) => !/^-[A-Za-z]+$/.test(w));
      local = { ...local, cwd: changeDir(arg, local) };
      continue;
    }
    checkSimple(cmd, local, out, depth, dialect);
  }
}

/** `set -- a b` (or `set a b`): the values of `$1`, `$2`, … and of `$@`/`$*` (any of them). */
function positional(args: string[]): Record<string, string> {
  const dash = args.indexOf('--');
  const values =
    dash >= 0 ? args.slice(dash + 1) : args[0]?.startsWith('-') || args[0]?.startsWith('+') ? [] : args;
  if (!values.length && dash < 0) return {};
  const vars: Record<string, string> = { '@': values.join(ALTERNATIVES), '*': values.join(ALTERNATIVES) };
  values.forEach((v, i) => {
    vars[String(i + 1)] = v;
  });
  return vars;
}

function checkSimple(
  cmd: SimpleCommand,
  ctx: PathContext,
  out: Finding[],
  depth: number,
  dialect: Dialect,
): void {
  for (const r of cmd.redirects) checkRedirect(r.op, r.target, ctx, out);
  if (!cmd.words.length) return;

  // A line handed on (`env -S`, `watch`, `find -exec`) reads the same input as the command.
  const fed = cmd.piped || cmd.redirects.some((r) => ['<', '<<', '<<<', '<>', '<&'].includes(r.op));
  const unwrapped = unwrap(cmd.words, (inner) => check(fed ? `: | ${inner}` : inner, ctx, out, depth + 1));
  // `env -C / rm -rf *` runs in another folder.
  if (unwrapped.chdir !== undefined) ctx = { ...ctx, cwd: changeDir(unwrapped.chdir, ctx) };
  if (unwrapped.admin) {
    out.push(warn('admin', 'shell.warn.admin', { program: unwrapped.admin }));
  }
  // `env LD_PRELOAD=x.so ls`: assignments among the wrappers' words.
  const envCode = codeVariable(
    cmd.words.slice(0, unwrapped.offset).flatMap((w) => /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(w)?.[1] ?? []),
  );
  if (envCode) out.push(envCode);
  if (!unwrapped.words.length) {
    // `echo … | sudo -s`, `… | su`: a shell reading its commands from the input.
    if (fed && unwrapped.admin)
      out.push(refuse('piped-code', 'shell.refuse.piped', { program: unwrapped.admin }));
    return;
  }
  const program = unwrapped.words[0]!;
  const words = [program, ...expandLongOptions(programName(program), unwrapped.words.slice(1))];
  // `$CMD`, `$(…)`, and `{rm,-rf,/}` or `/bin/r?` (brace and glob expansion) hide the program.
  const globbed = program !== '[' && program !== '[[' && /\{[^}]*,[^}]*\}|[*?[]/.test(program);
  if (isDynamic(program) || globbed) {
    out.push(refuse('dynamic', 'shell.refuse.dynamic', { word: showWord(program) }));
    return;
  }
  const name = ctx.cmd ? longName(programName(program)) : programName(program); // POWERS~1.EXE
  // `alias x='…'` and `trap '…' EXIT` hold command lines of their own.
  if (name === 'alias') {
    for (const w of words.slice(1))
      if (w.includes('=')) check(w.slice(w.indexOf('=') + 1), ctx, out, depth + 1);
  }
  if (name === 'trap' && words[1] && !words[1].startsWith('-')) check(words[1], ctx, out, depth + 1);
  if (name === '%0') {
    out.push({ level: 'refuse', rule: 'fork-bomb', key: 'shell.refuse.forkBomb' });
    return;
  }
  if (windowsFindings(program, name, words.slice(1), cmd, ctx, out)) return;
  const indirect = checkIndirect(name, words.slice(1), cmd) ?? checkPrograms(name, words.slice(1), cmd, ctx);
  if (indirect) {
    out.push(indirect);
    return;
  }
  // `x` in cmd.exe runs x.bat of the working folder: read as the batch file it is.
  const script = checkScript((ctx.cmd && localBatchFile(program, ctx)) || program, words.slice(1), ctx);
  if (script.finding) {
    out.push(script.finding);
    return;
  }
  if (script.content !== undefined) check(script.content, ctx, out, depth + 1);
  const before = out.length;
  checkDestructive(name, words, ctx, out, dialect, Boolean(unwrapped.viaXargs));
  if (!out.slice(before).some((f) => f.level === 'refuse')) {
    const written = checkPrograms(name, words.slice(1), cmd, ctx, 'writes');
    if (written) out.push(written);
  }
  checkRunsArguments(name, words, cmd, ctx, out, depth, dialect);
  // A command that names a secret is refused; the more specific refusal (`rm -rf ~/`) wins.
  const secret = secretIn(name, words, cmd, ctx);
  if (secret !== undefined && !out.slice(before).some((f) => f.level === 'refuse'))
    out.push(refuse('secret', 'shell.refuse.secret', { target: showWord(secret) }));
}

/** A word of the command (or a file it reads with `<`) that names a secret. */
function secretIn(name: string, words: string[], cmd: SimpleCommand, ctx: PathContext): string | undefined {
  const inputs = cmd.redirects.filter((r) => r.op === '<').map((r) => r.target);
  const all = [...words.slice(1), ...inputs];
  return secretWordIn(all, ctx) ?? windowsSecretIn(name, all, ctx);
}

/**
 * The general rule for programs that run their arguments as a command (`setsid`, `flock`,
 * `systemd-run`, `start`, `call`, a wrapper nobody listed): unless the program is known not to,
 * the line from the first argument naming a watched program on is checked as a command itself.
 */
function checkRunsArguments(
  name: string,
  words: string[],
  cmd: SimpleCommand,
  ctx: PathContext,
  out: Finding[],
  depth: number,
  dialect: Dialect,
): void {
  if (NON_RUNNERS.has(name) || WINDOWS_NON_RUNNERS.has(name) || depth > MAX_DEPTH) return;
  const at = words.findIndex((w, i) => i > 0 && !isDynamic(w) && isWatched(programName(w)));
  if (at < 0) return;
  checkSimple({ ...cmd, words: words.slice(at), redirects: [] }, ctx, out, depth + 1, dialect);
}

function checkRedirect(op: string, target: string, ctx: PathContext, out: Finding[]): void {
  if (!['>', '>>', '>|', '&>', '&>>', '>&', '<>'].includes(op)) return;
  if (op === '>&' && /^(\d+|-)$/.test(target)) return;
  if (isDiskDevice(target)) {
    out.push(refuse('device', 'shell.refuse.device', { target }));
    return;
  }
  if (/^\/dev\//.test(target) || /^nul$/i.test(target) || target === '') return;
  const special = writeTarget(target, ctx);
  if (special) {
    out.push(special);
    return;
  }
  if (isSystemTarget(target, ctx)) {
    out.push(refuse('redirect-critical', 'shell.refuse.deleteRoot', { target: showWord(target) }));
    return;
  }
  const append = op === '>>' || op === '&>>';
  out.push(
    append
      ? warn('append', 'shell.warn.append', { target: showWord(target) })
      : warn('overwrite', 'shell.warn.overwrite', { target: showWord(target) }),
  );
}
