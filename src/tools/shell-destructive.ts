import type { MessageKey, Params } from '../support/i18n/index.js';
import { type Dialect, programName, showWord } from './shell-parse.js';
import type { Finding } from './shell-policy.js';
import { classifyTarget, isDiskDevice, isSystemTarget, type PathContext } from './shell-targets.js';

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

export function checkDestructive(
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
