import type { MessageKey, Params } from '../support/i18n/index.js';
import { type Dialect, programName, showWord } from './shell-parse.js';
import type { Finding } from './shell-policy.js';
import { isRunner } from './shell-programs.js';
import { DELETING_SUBCOMMANDS, DEVICE_READERS, DISK_DESTROYERS, EMPTY_SOURCES } from './shell-rules.js';
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

const OTHER_WATCHED = new Set([
  'dd',
  'kill',
  'killall',
  'pkill',
  'taskkill',
  'stop-process',
  'find',
  'cp',
  'copy',
  'xcopy',
  'ln',
  'install',
  'tee',
  'rsync',
  'crontab',
  'git',
  'sed',
  'gsed',
  'curl',
  'wget',
  'unzip',
  'systemctl',
  'init',
  'diskutil',
  'format',
]);

/** A program some rule here or in shell-programs.ts looks at. */
export function isWatched(name: string): boolean {
  return (
    DELETE.has(name) ||
    MOVE.has(name) ||
    PERMS.has(name) ||
    FORMAT.has(name) ||
    name.startsWith('mkfs.') ||
    PARTITION.has(name) ||
    POWER.has(name) ||
    CONTENT.has(name) ||
    OTHER_WATCHED.has(name) ||
    name in DISK_DESTROYERS ||
    name in DELETING_SUBCOMMANDS ||
    isRunner(name)
  );
}

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
  const destroys = DISK_DESTROYERS[name];
  if (destroys && (destroys.source === '.' || args.some((a) => destroys.test(a)))) {
    return push('refuse', 'format', 'shell.refuse.format', { program: name });
  }
  // A disk device given to anything but a program that only reads it (`tar -cf /dev/sda`).
  const devices = args.map(deviceIn).filter((d): d is string => d !== undefined);
  if (devices.length && !DEVICE_READERS.has(name)) {
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
    if (args.some((a) => a === '-a' || a === '--append') && files.length)
      return push('warn', 'append', 'shell.warn.append', { target: showWord(files[0]!) });
    if (files.length)
      return push('warn', 'overwrite', 'shell.warn.overwrite', { target: showWord(files[0]!) });
    return;
  }
  if (name === 'rsync' && lower.some((a) => a.startsWith('--del') || a === '--remove-source-files')) {
    return push('warn', 'sync-delete', 'shell.warn.sync', { program: name });
  }
  if (name === 'crontab' && lower.includes('-r'))
    return push('warn', 'delete', 'shell.warn.delete', { program: 'crontab -r' });
  if (name === 'git') return checkGit(args, out);
  return checkOverwrites(name, args, lower, out);
}

/** `/dev/sda`, `of=/dev/sda`, `--file=/dev/sda`, `-f/dev/sda`: the device an argument names. */
function deviceIn(arg: string): string | undefined {
  const value = arg.replace(/^(of=|--[a-z-]+=|-[a-zA-Z](?=\/))/, '');
  return isDiskDevice(value) ? value : undefined;
}

/** Commands that replace or delete files without a word like rm in them. */
function checkOverwrites(name: string, args: string[], lower: string[], out: Finding[]): undefined {
  const warn = (rule: string, key: MessageKey, params: Params) => {
    out.push({ level: 'warn', rule, key, params });
    return undefined;
  };
  const ops = operands(args);
  const target = ops[ops.length - 1];
  const force = args.some((a) => a === '--force' || /^-[a-zA-Z]*f/.test(a));
  if (name === 'cp' || name === 'ln' || name === 'install') {
    const empties = ops.some((o) => EMPTY_SOURCES.has(o.toLowerCase()));
    const dotfile = target !== undefined && /(^|\/)\.[^/.][^/]*$/.test(target);
    if ((force || empties || dotfile || name === 'install') && target)
      return warn('overwrite', 'shell.warn.overwrite', { target: showWord(target) });
    return undefined;
  }
  if ((name === 'copy' || name === 'xcopy') && lower.includes('/y'))
    return warn('overwrite', 'shell.warn.overwrite', { target: showWord(target ?? name) });
  if (name === 'curl') {
    const out = outputOf(args, 'o', ['--output']);
    if (out) return warn('overwrite', 'shell.warn.overwrite', { target: showWord(out) });
    if (args.some((a) => a === '--remote-name' || /^-[a-zA-Z]*O/.test(a)))
      return warn('overwrite', 'shell.warn.overwrite', { target: 'curl -O' });
    return undefined;
  }
  if (name === 'wget') {
    const out = outputOf(args, 'O', ['--output-document']);
    if (out && out !== '-') return warn('overwrite', 'shell.warn.overwrite', { target: showWord(out) });
    return undefined;
  }
  if (name === 'unzip' && args.some((a) => /^-[a-zA-Z]*o/.test(a)))
    return warn('overwrite', 'shell.warn.overwrite', { target: 'unzip -o' });
  const sub = DELETING_SUBCOMMANDS[name];
  if (sub && args.some((a) => sub.test(a))) return warn('delete', 'shell.warn.delete', { program: name });
  return undefined;
}

/** The file a `-o file` / `-so file` / `--output file` / `--output=file` option names. */
function outputOf(args: string[], letter: string, long: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (long.includes(a)) return args[i + 1];
    const eq = long.find((l) => a.startsWith(`${l}=`));
    if (eq) return a.slice(eq.length + 1);
    if (/^-[a-zA-Z]+$/.test(a) && a.includes(letter)) {
      const rest = a.slice(a.indexOf(letter) + 1);
      return rest || args[i + 1];
    }
  }
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
  // `rd /s/q x` is `rd /s /q x`.
  args = args.flatMap((a) => (/^(\/[a-z])+$/i.test(a) && a.length > 2 ? a.match(/\/[a-z]/gi)! : [a]));
  lower = args.map((a) => a.toLowerCase());
  const windowsStyle = ['del', 'erase', 'rd'].includes(name) || lower.some((a) => a === '/s' || a === '/q');
  const powershell = name === 'remove-item' || name === 'ri';
  let recursive: boolean;
  let targets: string[];
  if (windowsStyle && (dialect === 'windows' || ['del', 'erase', 'rd', 'rmdir'].includes(name))) {
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
  // `find -L / …`, `find -O3 -D tree ~ …`: options may come before the start points.
  let i = 0;
  while (i < args.length && /^-([HLP]|O\d*|D)$/.test(args[i]!)) i += args[i] === '-D' ? 2 : 1;
  for (const a of args.slice(i)) {
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
  // A pattern with no literal character (`*`, `?*`, `.*`) matches everything; `-o` makes any filter optional.
  const filtered =
    !args.some((a) => a === '-o' || a === '-or') &&
    args.some(
      (a, j) =>
        /^-(i?name|i?path|i?wholename|i?regex|lname|newer\w*|size|mtime|mmin)$/.test(a) &&
        /[^*?.+^$\\[\]]/.test(args[j + 1] ?? ''),
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
  } else if (
    sub === 'push' &&
    rest.some((a) => ['-d', '--delete', '--mirror', '--prune'].includes(a) || /^:[^:]/.test(a))
  ) {
    command = 'git push --delete';
  } else if (sub === 'branch' && has('-D', '--delete', '-d')) command = 'git branch -D';
  else if (sub === 'stash' && (rest[0] === 'drop' || rest[0] === 'clear')) command = `git stash ${rest[0]}`;
  else if (sub === 'rm') command = 'git rm';
  if (command) out.push({ level: 'warn', rule: 'git', key: 'shell.warn.git', params: { command } });
  return undefined;
}
