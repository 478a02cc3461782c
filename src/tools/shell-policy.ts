/**
 * The shell policy (design §3, issue 6): a command line is parsed into simple commands (in both
 * the POSIX and the Windows dialect, so `C:\` and `\rm` are seen either way), and each one is
 * checked. Catastrophic commands and indirect execution are refused outright; destructive ones
 * get a warning shown before the question. Substitutions (`$(…)`, backticks) are checked as
 * commands of their own, recursively.
 */
import { homedir } from 'node:os';
import type { MessageKey, Params } from '../support/i18n/index.js';
import { t } from '../support/i18n/index.js';
import { checkDestructive } from './shell-destructive.js';
import {
  type Dialect,
  isDynamic,
  parseLine,
  programName,
  type SimpleCommand,
  showWord,
} from './shell-parse.js';
import { checkIndirect, unwrap } from './shell-programs.js';
import { changeDir, isDiskDevice, isSystemTarget, type PathContext } from './shell-targets.js';

export interface Finding {
  level: 'refuse' | 'warn';
  /** Stable name of the rule, for tests and logs. */
  rule: string;
  key: MessageKey;
  params?: Params;
}

export interface ShellVerdict {
  level: 'refuse' | 'warn' | 'allow';
  findings: Finding[];
}

export interface PolicyOptions {
  home?: string;
  cwd?: string;
}

const MAX_DEPTH = 8;

/** Check a whole command line. */
export function assessCommand(line: string, opts: PolicyOptions = {}): ShellVerdict {
  const ctx: PathContext = {
    home: slash(opts.home ?? homedir()),
    cwd: slash(opts.cwd ?? process.cwd()),
  };
  const findings: Finding[] = [];
  check(line, ctx, findings, 0);
  const unique = dedupe(findings);
  const level = unique.some((f) => f.level === 'refuse') ? 'refuse' : unique.length ? 'warn' : 'allow';
  return { level, findings: unique };
}

/** The text for a person (and the model): the first refusal, or every warning joined. */
export function describeVerdict(v: ShellVerdict): { refuse?: string; warning?: string } {
  const refusal = v.findings.find((f) => f.level === 'refuse');
  if (refusal) return { refuse: t(refusal.key, refusal.params) };
  if (!v.findings.length) return {};
  const list = v.findings.map((f) => t(f.key, f.params)).join('; ');
  return { warning: t('shell.warn.header', { list }) };
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
  // Without a backslash or caret both dialects read the line the same way.
  const dialects: Dialect[] = /[\\^]/.test(line) ? ['posix', 'windows'] : ['posix'];
  for (const dialect of dialects) {
    let parsed: ReturnType<typeof parseLine>;
    try {
      parsed = parseLine(line, dialect);
    } catch {
      if (dialect === 'windows') continue;
      out.push({ level: 'refuse', rule: 'unparsable', key: 'shell.refuse.unparsable' });
      return;
    }
    for (const sub of parsed.substitutions) check(sub, ctx, out, depth + 1);
    for (const fn of parsed.functions) {
      const recursive = fn.body.some((c) => c.words[0] === fn.name);
      if (recursive) out.push({ level: 'refuse', rule: 'fork-bomb', key: 'shell.refuse.forkBomb' });
    }
    // `cd / && rm -rf *`: follow the folder changes of the line.
    // and the variables it sets (`D=/; rm -rf $D`).
    let local: PathContext = { ...ctx, vars: { ...ctx.vars } };
    for (const cmd of parsed.commands) {
      const vars = { ...local.vars };
      for (const [name, value] of cmd.assignments) vars[name] = value;
      const first = programName(cmd.words[0] ?? '');
      if (['export', 'declare', 'typeset', 'local', 'readonly'].includes(first)) {
        for (const w of cmd.words.slice(1)) {
          const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(w);
          if (m) vars[m[1]!] = m[2]!;
        }
      }
      local = { ...local, vars };
      if (['cd', 'pushd', 'chdir', 'set-location', 'sl'].includes(first)) {
        const arg = cmd.words.slice(1).find((w) => !/^-[A-Za-z]$/.test(w));
        local = { ...local, cwd: changeDir(arg, local) };
        continue;
      }
      checkSimple(cmd, local, out, depth, dialect);
    }
  }
  // The classic spelling, even if a parser ever reads it differently.
  if (/:\s*\(\s*\)\s*\{[^}]*:\s*\|\s*:/.test(line) || /%0\s*\|\s*%0/.test(line)) {
    out.push({ level: 'refuse', rule: 'fork-bomb', key: 'shell.refuse.forkBomb' });
  }
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

  const unwrapped = unwrap(cmd.words, (inner) => check(inner, ctx, out, depth + 1));
  if (unwrapped.admin) {
    out.push({ level: 'warn', rule: 'admin', key: 'shell.warn.admin', params: { program: unwrapped.admin } });
  }
  const words = unwrapped.words;
  if (!words.length) return;
  const program = words[0]!;
  // `$CMD`, `$(…)`, and `{rm,-rf,/}` or `/bin/r?` (brace and glob expansion) hide the program.
  const globbed = program !== '[' && program !== '[[' && /\{[^}]*,[^}]*\}|[*?[]/.test(program);
  if (isDynamic(program) || globbed) {
    out.push({
      level: 'refuse',
      rule: 'dynamic',
      key: 'shell.refuse.dynamic',
      params: { word: showWord(program) },
    });
    return;
  }
  const name = programName(program);
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
  const indirect = checkIndirect(name, words.slice(1), cmd);
  if (indirect) {
    out.push(indirect);
    return;
  }
  checkDestructive(name, words, ctx, out, dialect, Boolean(unwrapped.viaXargs));
}

function checkRedirect(op: string, target: string, ctx: PathContext, out: Finding[]): void {
  if (!['>', '>>', '>|', '&>', '&>>', '>&', '<>'].includes(op)) return;
  if (op === '>&' && /^(\d+|-)$/.test(target)) return;
  if (isDiskDevice(target)) {
    out.push({ level: 'refuse', rule: 'device', key: 'shell.refuse.device', params: { target } });
    return;
  }
  if (/^\/dev\//.test(target) || /^nul$/i.test(target) || target === '') return;
  if (isSystemTarget(target, ctx)) {
    out.push({
      level: 'refuse',
      rule: 'redirect-critical',
      key: 'shell.refuse.deleteRoot',
      params: { target: showWord(target) },
    });
    return;
  }
  const append = op === '>>' || op === '&>>';
  out.push({
    level: 'warn',
    rule: append ? 'append' : 'overwrite',
    key: append ? 'shell.warn.append' : 'shell.warn.overwrite',
    params: { target: showWord(target) },
  });
}
