import { CONTENT, DELETE, FORMAT, KILL, MOVE, PARTITION, PERMS, POWER } from './destructive-programs.js';
import type { Finding } from './findings.js';
import { refuse, warn } from './findings.js';
import { checkGit, checkOverwrites, operands } from './overwrite.js';
import type { Dialect } from './parse.js';
import { programName, showWord } from './parse.js';
import { DEVICE_READERS, DISK_DESTROYERS } from './rules.js';
import { classifyTarget, isDiskDevice, isSystemTarget, type PathContext } from './targets.js';

/** One simple command as the rules below see it. */
interface Call {
  name: string;
  args: string[];
  /** `args` in lower case, for Windows programs and options. */
  lower: string[];
  ctx: PathContext;
  out: Finding[];
  dialect: Dialect;
  viaXargs: boolean;
}

/** The check ends here with nothing to say (`dd` without `of=`, `sed` without `-i`). */
const DONE = 'done';

/**
 * A rule answers with a finding (the check ends with it), DONE (the check ends, nothing found),
 * or undefined (not its case: the next rule is asked).
 */
type Rule = (c: Call) => Finding | typeof DONE | undefined;

const noPreserveRoot: Rule = (c) =>
  c.lower.includes('--no-preserve-root')
    ? refuse('no-preserve-root', 'shell.refuse.noPreserveRoot')
    : undefined;

const formatDisk: Rule = ({ name, args, lower }) => {
  const formats =
    FORMAT.has(name) ||
    name.startsWith('mkfs.') ||
    (name === 'format' && args.some((a) => /^[a-z]:\\?$/i.test(a))) ||
    (name === 'diskutil' && lower.some((a) => /^(erase|zero|secureerase|partitiondisk|reformat)/.test(a)));
  return formats ? refuse('format', 'shell.refuse.format', { program: name }) : undefined;
};

const ddDevice: Rule = ({ name, args }) => {
  if (name !== 'dd') return undefined;
  const of = args.find((a) => a.startsWith('of='))?.slice(3);
  if (of && isDiskDevice(of)) return refuse('device', 'shell.refuse.device', { target: of });
  if (of && !of.startsWith('/dev/')) return warn('dd', 'shell.warn.dd', { target: showWord(of) });
  return DONE;
};

const diskDestroyer: Rule = ({ name, args }) => {
  const destroys = DISK_DESTROYERS[name];
  if (destroys && (destroys.source === '.' || args.some((a) => destroys.test(a)))) {
    return refuse('format', 'shell.refuse.format', { program: name });
  }
  return undefined;
};

/** A disk device given to anything but a program that only reads it (`tar -cf /dev/sda`). */
const deviceArgument: Rule = ({ name, args }) => {
  const device = args.map(deviceIn).find((d) => d !== undefined);
  return device !== undefined && !DEVICE_READERS.has(name)
    ? refuse('device', 'shell.refuse.device', { target: device })
    : undefined;
};

/** `kill -9 -1`: every process the user owns. */
const killAll: Rule = ({ name, args }) =>
  name === 'kill' && args.length >= 2 && args[args.length - 1] === '-1'
    ? refuse('kill-all', 'shell.refuse.killAll')
    : undefined;

const deletes: Rule = (c) => {
  if (!DELETE.has(c.name)) return undefined;
  checkDelete(c.name, c.args, c.lower, c.ctx, c.out, c.dialect, c.viaXargs);
  return DONE;
};

const findDeletes: Rule = (c) => {
  if (c.name !== 'find') return undefined;
  checkFind(c.args, c.ctx, c.out);
  return DONE;
};

const permissions: Rule = ({ name, args, lower, ctx }) => {
  if (!PERMS.has(name)) return undefined;
  const recursive =
    name === 'icacls' || name === 'takeown' || name === 'cacls' || name === 'attrib'
      ? lower.some((a) => a === '/t' || a === '/s' || (name === 'takeown' && a === '/r'))
      : args.some((a) => a === '-R' || a === '--recursive' || /^-[a-zA-Z]*R[a-zA-Z]*$/.test(a));
  const target = recursive ? operands(args).find((a) => classifyTarget(a, ctx) === 'critical') : undefined;
  if (target) return refuse('recursive-perms', 'shell.refuse.recursivePerms', { target: showWord(target) });
  // `icacls %USERPROFILE% /deny Everyone:F`: even one folder locked is the whole profile or Windows.
  const denies =
    name === 'icacls' && lower.some((a) => /^\/(deny|setowner|reset|remove|inheritance:r)/.test(a));
  const locked = denies ? operands(args).find((a) => classifyTarget(a, ctx) === 'critical') : undefined;
  if (locked)
    return refuse('deny-access', 'shell.refuse.denyAccess', { target: showWord(locked), program: name });
  return warn('perms', 'shell.warn.perms', { program: name });
};

const moves: Rule = ({ name, args, ctx }) => {
  if (!MOVE.has(name)) return undefined;
  const ops = operands(args);
  // `mv -t /tmp ~`: with a target folder given as an option, every operand is a source.
  const into = args.findIndex((a) => a === '-t' || a.startsWith('--target-directory') || /^-t./.test(a));
  const joined = into >= 0 && /^(-t.|--target-directory=)/.test(args[into]!);
  const sources =
    into < 0
      ? ops.length > 1
        ? ops.slice(0, -1)
        : ops
      : joined
        ? ops
        : ops.filter((a) => a !== args[into + 1]);
  const target = sources.find((a) => classifyTarget(a, ctx) === 'critical');
  if (target) return refuse('move-critical', 'shell.refuse.moveCritical', { target: showWord(target) });
  return warn('move', 'shell.warn.move', { program: name });
};

const content: Rule = ({ name, args, ctx }) => {
  if (!CONTENT.has(name)) return undefined;
  // `shred -u ~/*`: the contents of a protected folder.
  const target = operands(args).find((a) => classifyTarget(a, ctx) === 'critical' || isSystemTarget(a, ctx));
  if (target) return refuse('delete-critical', 'shell.refuse.deleteRoot', { target: showWord(target) });
  return warn('content', 'shell.warn.truncate', { program: name });
};

const partition: Rule = ({ name, lower }) =>
  PARTITION.has(name) && !lower.includes('-l') && !lower.includes('--list')
    ? warn('partition', 'shell.warn.disk', { program: name })
    : undefined;

const power: Rule = ({ name, args, lower }) => {
  // `shutdown -c` cancels a planned shutdown.
  const off =
    (POWER.has(name) && !lower.includes('-c')) ||
    (name === 'init' && /^[06]$/.test(args[0] ?? '')) ||
    (name === 'systemctl' && /^(poweroff|reboot|halt|kexec|suspend|hibernate)$/.test(lower[0] ?? ''));
  return off ? refuse('power', 'shell.refuse.power') : undefined;
};

const kill: Rule = ({ name }) =>
  KILL.has(name) ? warn('kill', 'shell.warn.kill', { program: name }) : undefined;

/** `sed -i`, `perl -pi`: the file is rewritten in place. */
const inPlace: Rule = ({ name, args }) => {
  let flag: string | undefined;
  if (name === 'sed' || name === 'gsed') {
    flag = args.find((a) => a === '--in-place' || a.startsWith('--in-place=') || /^-[a-zA-Z]*i/.test(a));
  } else if (name === 'perl' || name === 'ruby') {
    flag = args.find((a) => /^-[a-zA-Z]*i/.test(a));
  } else {
    return undefined;
  }
  return flag ? warn('in-place', 'shell.warn.inPlace', { program: name, flag }) : DONE;
};

const tee: Rule = ({ name, args, ctx }) => {
  if (name !== 'tee') return undefined;
  const files = operands(args);
  const system = files.find((f) => isSystemTarget(f, ctx));
  if (system) return refuse('redirect-critical', 'shell.refuse.deleteRoot', { target: showWord(system) });
  if (!files.length) return DONE;
  const append = args.some((a) => a === '-a' || a === '--append');
  return append
    ? warn('append', 'shell.warn.append', { target: showWord(files[0]!) })
    : warn('overwrite', 'shell.warn.overwrite', { target: showWord(files[0]!) });
};

const syncDeletes: Rule = ({ name, lower }) =>
  name === 'rsync' && lower.some((a) => a.startsWith('--del') || a === '--remove-source-files')
    ? warn('sync-delete', 'shell.warn.sync', { program: name })
    : undefined;

const crontabRemove: Rule = ({ name, lower }) =>
  name === 'crontab' && lower.includes('-r')
    ? warn('delete', 'shell.warn.delete', { program: 'crontab -r' })
    : undefined;

const git: Rule = ({ name, args, out }) => {
  if (name !== 'git') return undefined;
  checkGit(args, out);
  return DONE;
};

/** In order: the first rule that answers decides (refusals of whole disks come first). */
const RULES: readonly Rule[] = [
  noPreserveRoot,
  formatDisk,
  ddDevice,
  diskDestroyer,
  deviceArgument,
  killAll,
  deletes,
  findDeletes,
  permissions,
  moves,
  content,
  partition,
  power,
  kill,
  inPlace,
  tee,
  syncDeletes,
  crontabRemove,
  git,
];

/** Adds to `out` what makes this simple command destructive (at most one finding). */
export function checkDestructive(
  name: string,
  words: string[],
  ctx: PathContext,
  out: Finding[],
  dialect: Dialect,
  viaXargs: boolean,
): undefined {
  const args = words.slice(1);
  const call: Call = { name, args, lower: args.map((a) => a.toLowerCase()), ctx, out, dialect, viaXargs };
  for (const rule of RULES) {
    const verdict = rule(call);
    if (verdict === DONE) return undefined;
    if (verdict) {
      out.push(verdict);
      return undefined;
    }
  }
  return checkOverwrites(name, args, call.lower, out);
}

/** `/dev/sda`, `of=/dev/sda`, `--file=/dev/sda`, `-f/dev/sda`: the device an argument names. */
function deviceIn(arg: string): string | undefined {
  const value = arg.replace(/^(of=|--[a-z-]+=|-[a-zA-Z](?=\/))/, '');
  return isDiskDevice(value) ? value : undefined;
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
    out.push(refuse('delete-computed', 'shell.refuse.computedDelete', { target: 'xargs' }));
    return;
  }
  for (const target of targets) {
    const verdict = classifyTarget(target, ctx);
    // `rm -rf .*` may reach the parent folder (`..`) in shells that match it.
    const parent = recursive && /(^|\/)\.\*$/.test(target);
    if ((verdict === 'critical' && (recursive || /[*?[{]/.test(target))) || parent) {
      out.push(refuse('delete-critical', 'shell.refuse.deleteRoot', { target: showWord(target) }));
      return;
    }
    if (verdict === 'computed' && recursive) {
      out.push(refuse('delete-computed', 'shell.refuse.computedDelete', { target: showWord(target) }));
      return;
    }
  }
  out.push({ level: 'warn', rule: 'delete', key: 'shell.warn.delete', params: { program: name } });
  return undefined;
}

/** What a find -exec body does to each file it is given: deletes, wipes, moves or locks it. */
function destroys(name: string): boolean {
  return DELETE.has(name) || CONTENT.has(name) || MOVE.has(name) || PERMS.has(name);
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
    args.some((a, i) => /^-(exec|execdir|ok|okdir)$/.test(a) && destroys(programName(args[i + 1] ?? '')));
  if (!deletes) return;
  // `find ~ -name '*.tmp' -delete` picks files by name; `find / -delete` takes everything.
  // A pattern with no literal character (`*`, `?*`, `.*`) matches everything; `-o` makes any filter optional.
  // Only a name with a literal character filters (`-size +0`, `[a-z]*` and `-not -name x` match nearly all).
  const filtered =
    !args.some((a) => a === '-o' || a === '-or' || a === '-not' || a === '!') &&
    args.some(
      (a, j) =>
        /^-(i?name|i?path|i?wholename|i?regex|lname)$/.test(a) &&
        /[^*?.+^$\\[\]]/.test((args[j + 1] ?? '').replace(/\[[^\]]*\]/g, '')),
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
  // An -exec rm body has its own warning ("deletes files (rm)"); only -delete needs one here.
  if (lower.includes('-delete'))
    out.push({
      level: 'warn',
      rule: 'delete',
      key: 'shell.warn.delete',
      params: { program: 'find -delete' },
    });
  return undefined;
}
