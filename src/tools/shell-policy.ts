/**
 * The shell policy (design §3, issue 6): a command line is parsed into simple commands (in both
 * the POSIX and the Windows dialect, so `C:\` and `\rm` are seen either way), and each one is
 * checked. Catastrophic commands and indirect execution are refused outright; destructive ones
 * get a warning shown before the question. Substitutions (`$(…)`, backticks) are checked as
 * commands of their own, recursively.
 */
import { homedir } from 'node:os';
import { t } from '../support/i18n/index.js';
import type { MessageKey, Params } from '../support/i18n/index.js';
import { type Dialect, isDynamic, parseLine, type SimpleCommand, showWord } from './shell-parse.js';
import {
  changeDir,
  classifyTarget,
  isDiskDevice,
  isSystemTarget,
  type PathContext,
} from './shell-targets.js';
import { checkIndirect, unwrap } from './shell-programs.js';

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

/** `/usr/bin/RM.exe` → `rm`. */
export function programName(word: string): string {
  const base = word.replace(/\\/g, '/').split('/').pop() ?? word;
  return base.toLowerCase().replace(/\.(exe|cmd|bat|com)$/, '');
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

const DELETE = new Set(['rm', 'unlink', 'rmdir', 'del', 'erase', 'rd', 'remove-item', 'ri', 'srm', 'trash']);
const MOVE = new Set(['mv', 'move', 'ren', 'rename', 'move-item', 'mi', 'rename-item', 'rni']);
const PERMS = new Set([
  'chmod',
  'chown',
  'chgrp',
  'chattr',
  'setfacl',
  'icacls',
  'takeown',
  'cacls',
  'attrib',
]);
const FORMAT = new Set([
  'mkfs',
  'mke2fs',
  'mkswap',
  'mkdosfs',
  'mkntfs',
  'mkfs.ext4',
  'newfs',
  'wipefs',
  'diskpart',
  'format-volume',
  'clear-disk',
  'initialize-disk',
]);
const PARTITION = new Set(['fdisk', 'sfdisk', 'cfdisk', 'parted', 'gdisk', 'sgdisk', 'gparted']);
const POWER = new Set(['shutdown', 'reboot', 'halt', 'poweroff', 'stop-computer', 'restart-computer']);
const CONTENT = new Set([
  'truncate',
  'shred',
  'wipe',
  'set-content',
  'clear-content',
  'out-file',
  'clear-item',
]);

function checkDestructive(
  name: string,
  words: string[],
  ctx: PathContext,
  out: Finding[],
  dialect: Dialect,
  viaXargs: boolean,
): undefined {
  const args = words.slice(1);
  const lower = args.map((a) => a.toLowerCase());
  const push = (level: Finding['level'], rule: string, key: MessageKey, params?: Params): undefined => {
    out.push({ level, rule, key, ...(params ? { params } : {}) });
    return undefined;
  };

  if (lower.includes('--no-preserve-root'))
    return push('refuse', 'no-preserve-root', 'shell.refuse.noPreserveRoot');

  if (
    FORMAT.has(name) ||
    name.startsWith('mkfs.') ||
    (name === 'format' && args.some((a) => /^[a-z]:\\?$/i.test(a)))
  ) {
    return push('refuse', 'format', 'shell.refuse.format', { program: name });
  }
  if (name === 'diskutil' && lower.some((a) => /^(erase|zero|secureerase|partitiondisk|reformat)/.test(a))) {
    return push('refuse', 'format', 'shell.refuse.format', { program: 'diskutil' });
  }
  if (name === 'dd') {
    const of = args.find((a) => a.startsWith('of='))?.slice(3);
    if (of && isDiskDevice(of)) return push('refuse', 'device', 'shell.refuse.device', { target: of });
    if (of && !of.startsWith('/dev/')) return push('warn', 'dd', 'shell.warn.dd', { target: showWord(of) });
    return;
  }
  const devices = args.filter((a) => isDiskDevice(a.replace(/^of=/, '')));
  if (
    devices.length &&
    ['cp', 'mv', 'tee', 'shred', 'wipe', 'cat', 'pv', 'ddrescue', 'badblocks'].includes(name)
  ) {
    if (name !== 'cat' && name !== 'pv')
      return push('refuse', 'device', 'shell.refuse.device', { target: devices[0]! });
  }
  // `kill -9 -1`: every process the user owns.
  if (name === 'kill' && args.length >= 2 && args[args.length - 1] === '-1') {
    return push('refuse', 'kill-all', 'shell.refuse.killAll');
  }

  if (DELETE.has(name)) return checkDelete(name, args, lower, ctx, out, dialect, viaXargs);

  if (name === 'find') return checkFind(args, ctx, out);

  if (PERMS.has(name)) {
    const recursive =
      name === 'icacls' || name === 'takeown' || name === 'cacls' || name === 'attrib'
        ? lower.some((a) => a === '/t' || a === '/s')
        : args.some((a) => a === '-R' || a === '--recursive' || /^-[a-zA-Z]*R[a-zA-Z]*$/.test(a));
    if (recursive) {
      const target = operands(args).find((a) => classifyTarget(a, ctx) === 'critical');
      if (target)
        return push('refuse', 'recursive-perms', 'shell.refuse.recursivePerms', { target: showWord(target) });
    }
    return push('warn', 'perms', 'shell.warn.perms', { program: name });
  }
  if (MOVE.has(name)) {
    const ops = operands(args);
    const sources = ops.length > 1 ? ops.slice(0, -1) : ops;
    const target = sources.find((a) => classifyTarget(a, ctx) === 'critical');
    if (target)
      return push('refuse', 'move-critical', 'shell.refuse.moveCritical', { target: showWord(target) });
    return push('warn', 'move', 'shell.warn.move', { program: name });
  }
  if (CONTENT.has(name)) return push('warn', 'content', 'shell.warn.truncate', { program: name });
  if (PARTITION.has(name) && !lower.includes('-l') && !lower.includes('--list')) {
    return push('warn', 'partition', 'shell.warn.disk', { program: name });
  }
  if (POWER.has(name) || (name === 'init' && /^[06]$/.test(args[0] ?? '')))
    return push('warn', 'power', 'shell.warn.power');
  if (name === 'systemctl' && /^(poweroff|reboot|halt|kexec|suspend|hibernate)$/.test(lower[0] ?? '')) {
    return push('warn', 'power', 'shell.warn.power');
  }
  if (['kill', 'killall', 'pkill', 'taskkill', 'stop-process'].includes(name)) {
    return push('warn', 'kill', 'shell.warn.kill', { program: name });
  }
  if (name === 'sed' || name === 'gsed') {
    const flag = args.find(
      (a) => a === '--in-place' || a.startsWith('--in-place=') || /^-[a-zA-Z]*i/.test(a),
    );
    if (flag) return push('warn', 'in-place', 'shell.warn.inPlace', { program: name, flag });
    return;
  }
  if (name === 'perl' || name === 'ruby') {
    const flag = args.find((a) => /^-[a-zA-Z]*i/.test(a));
    if (flag) return push('warn', 'in-place', 'shell.warn.inPlace', { program: name, flag });
    return;
  }
  if (name === 'tee') {
    const files = operands(args);
    const system = files.find((f) => isSystemTarget(f, ctx));
    if (system)
      return push('refuse', 'redirect-critical', 'shell.refuse.deleteRoot', { target: showWord(system) });
    if (args.some((a) => a === '-a' || a === '--append')) return;
    if (files.length)
      return push('warn', 'overwrite', 'shell.warn.overwrite', { target: showWord(files[0]!) });
    return;
  }
  if (name === 'rsync' && lower.some((a) => a.startsWith('--delete') || a === '--remove-source-files')) {
    return push('warn', 'sync-delete', 'shell.warn.sync', { program: name });
  }
  if (name === 'crontab' && lower.includes('-r'))
    return push('warn', 'delete', 'shell.warn.delete', { program: 'crontab -r' });
  if (name === 'git') return checkGit(args, out);
  return undefined;
}

/** Arguments that are not options (everything after `--` counts). */
function operands(args: string[]): string[] {
  const out: string[] = [];
  let ended = false;
  for (const a of args) {
    if (!ended && a === '--') {
      ended = true;
      continue;
    }
    if (!ended && a.startsWith('-') && a !== '-') continue;
    out.push(a);
  }
  return out;
}

function checkDelete(
  name: string,
  args: string[],
  lower: string[],
  ctx: PathContext,
  out: Finding[],
  dialect: Dialect,
  viaXargs: boolean,
): undefined {
  const windowsStyle = ['del', 'erase', 'rd'].includes(name) || lower.some((a) => a === '/s');
  const powershell = name === 'remove-item' || name === 'ri';
  let recursive: boolean;
  let targets: string[];
  if (windowsStyle && (dialect === 'windows' || ['del', 'erase', 'rd'].includes(name))) {
    recursive = lower.includes('/s');
    targets = args.filter((a) => !/^\/[a-z]$/i.test(a) && !/^\/a(:\w*)?$/i.test(a));
    // `del /q c:\*` deletes every file of the drive root even without /s.
    if (targets.some((a) => /^[a-z]:[\\/]?\*/i.test(a))) recursive = true;
  } else if (powershell || (dialect === 'windows' && args.some((a) => /^-rec/i.test(a)))) {
    recursive = args.some((a) => /^-r(e(c(u(r(s(e)?)?)?)?)?)?$/i.test(a));
    targets = args.filter((a, i) => !a.startsWith('-') || /^-(path|literalpath)$/i.test(args[i - 1] ?? ''));
    targets = targets.filter((a) => !a.startsWith('-'));
  } else {
    recursive = args.some((a) => a === '--recursive' || /^-[a-zA-Z]*[rR][a-zA-Z]*$/.test(a));
    targets = operands(args);
  }
  if (viaXargs && recursive) {
    // `… | xargs rm -rf`: what gets deleted is only known when the command runs.
    out.push({
      level: 'refuse',
      rule: 'delete-computed',
      key: 'shell.refuse.computedDelete',
      params: { target: 'xargs' },
    });
    return;
  }
  for (const target of targets) {
    const verdict = classifyTarget(target, ctx);
    if (verdict === 'critical' && (recursive || /[*?[{]/.test(target))) {
      out.push({
        level: 'refuse',
        rule: 'delete-critical',
        key: 'shell.refuse.deleteRoot',
        params: { target: showWord(target) },
      });
      return;
    }
    if (verdict === 'computed' && recursive) {
      out.push({
        level: 'refuse',
        rule: 'delete-computed',
        key: 'shell.refuse.computedDelete',
        params: { target: showWord(target) },
      });
      return;
    }
  }
  out.push({ level: 'warn', rule: 'delete', key: 'shell.warn.delete', params: { program: name } });
  return undefined;
}

function checkFind(args: string[], ctx: PathContext, out: Finding[]): undefined {
  const starts: string[] = [];
  for (const a of args) {
    if (a.startsWith('-') || a === '(' || a === '!') break;
    starts.push(a);
  }
  if (!starts.length) starts.push('.');
  const lower = args.map((a) => a.toLowerCase());
  const deletes =
    lower.includes('-delete') ||
    args.some((a, i) => /^-(exec|execdir|ok|okdir)$/.test(a) && DELETE.has(programName(args[i + 1] ?? '')));
  if (!deletes) return;
  // `find ~ -name '*.tmp' -delete` picks files by name; `find / -delete` takes everything.
  const filtered = args.some(
    (a, i) =>
      /^-(i?name|i?path|i?wholename|i?regex|lname|newer\w*|size|mtime|mmin)$/.test(a) &&
      !/^(\*|\.\*|)$/.test(args[i + 1] ?? ''),
  );
  const critical = starts.find((s) => classifyTarget(s, ctx) !== 'ordinary');
  if (critical && !filtered) {
    out.push({
      level: 'refuse',
      rule: 'find-delete',
      key: 'shell.refuse.findDelete',
      params: { target: showWord(critical) },
    });
    return;
  }
  out.push({ level: 'warn', rule: 'delete', key: 'shell.warn.delete', params: { program: 'find -delete' } });
  return undefined;
}

function checkGit(args: string[], out: Finding[]): undefined {
  // Skip global options such as `-C dir` and `-c key=value`.
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-'))
    i += ['-C', '-c', '--git-dir', '--work-tree'].includes(args[i]!) ? 2 : 1;
  const sub = args[i];
  const rest = args.slice(i + 1);
  const has = (...flags: string[]) => rest.some((a) => flags.includes(a));
  let command: string | undefined;
  if (sub === 'reset' && has('--hard', '--merge', '--keep')) command = 'git reset --hard';
  else if (sub === 'clean' && rest.some((a) => /^-[a-zA-Z]*[fdxX]/.test(a) || a === '--force'))
    command = 'git clean';
  else if (sub === 'checkout' && (has('--', '.', '-f', '--force') || rest.length === 0))
    command = 'git checkout';
  else if (sub === 'restore') command = 'git restore';
  else if (sub === 'push' && rest.some((a) => a === '-f' || a.startsWith('--force') || a.startsWith('+'))) {
    command = 'git push --force';
  } else if (sub === 'branch' && has('-D', '--delete', '-d')) command = 'git branch -D';
  else if (sub === 'stash' && (rest[0] === 'drop' || rest[0] === 'clear')) command = `git stash ${rest[0]}`;
  else if (sub === 'rm') command = 'git rm';
  if (command) out.push({ level: 'warn', rule: 'git', key: 'shell.warn.git', params: { command } });
  return undefined;
}
