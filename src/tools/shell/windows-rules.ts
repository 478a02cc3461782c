/**
 * The catastrophic Windows families, as data: each rule names the program, says when a call of it
 * is refused, and with which reason. On Windows there is no sandbox behind the question, so these
 * are refused outright (design §3). Paths are judged by targets.ts like every other path.
 */
import { posix } from 'node:path';
import type { Finding } from './findings.js';
import { refuse } from './findings.js';
import { showWord } from './parse.js';
import { classifyTarget, type PathContext } from './targets.js';
import { checkWindowsEgress } from './windows-egress.js';
import { normalSwitches, WINDOWS_FAMILIES } from './windows-families.js';

interface WindowsRule {
  /** Stable name, for tests and logs. */
  rule: string;
  programs: string[];
  /** What the call does that is refused: the finding, or undefined when it is not this case. */
  test: (args: string[], lower: string[], ctx: PathContext, program: string) => Finding | undefined;
}

const URL = /^(https?|ftp|file):\/\/|^\\\\[^\\]+\\|^(javascript|vbscript|about):/i;
const HIVE = /^(\\\\[^\\]+\\)?(hkcu|hklm|hku|hkcr|hkcc|hkey_[a-z_]+)(\\|$)/i;

const remote = (program: string) => refuse('remote-code', 'shell.refuse.remoteCode', { program });
const shadows = (program: string) => refuse('shadow-copies', 'shell.refuse.shadowCopies', { program });

/** Arguments that are not options (`/x`, `-x`). */
const operands = (args: string[]) => args.filter((a) => !/^[/-]/.test(a));

/**
 * A folder a recursive delete reaches outside the working folder (`rd /s ..\\x`, `del /s D:\\x`):
 * without a sandbox, zhi deletes whole trees only inside the folder it works in.
 */
function outsideCwd(target: string, ctx: PathContext): boolean {
  if (!ctx.cmd || ctx.cwd === '' || classifyTarget(target, ctx) !== 'ordinary') return false;
  const p = target.replace(/\\/g, '/');
  const abs = /^[a-z]:\//i.test(p)
    ? posix.normalize(p)
    : /^[a-z]:|^\//i.test(p)
      ? ''
      : posix.join(ctx.cwd, p);
  const cwd = ctx.cwd.replace(/\/+$/, '').toLowerCase();
  const lower = abs.replace(/\/+$/, '').toLowerCase();
  return lower !== cwd && !lower.startsWith(`${cwd}/`);
}

const RECURSIVE_DELETE = ['rd', 'rmdir', 'del', 'erase', 'remove-item', 'ri'];

export const WINDOWS_RULES: readonly WindowsRule[] = [
  {
    rule: 'delete-outside',
    programs: RECURSIVE_DELETE,
    test: (args, lower, ctx) => {
      const flags = lower.flatMap((a) => (/^(\/[a-z])+$/.test(a) ? a.match(/\/[a-z]/g)! : [a]));
      if (!flags.includes('/s') && !lower.some((a) => /^-r(e(c(u(r(s(e)?)?)?)?)?)?$/.test(a)))
        return undefined;
      const target = operands(args).find((a) => outsideCwd(a, ctx));
      return target === undefined
        ? undefined
        : refuse('delete-outside', 'shell.refuse.deleteOutside', { target: showWord(target) });
    },
  },
  {
    rule: 'registry-delete',
    programs: ['reg'],
    test: (args, lower) =>
      lower[0] === 'delete' && HIVE.test(args[1] ?? '')
        ? refuse('registry-delete', 'shell.refuse.registry', { key: args[1]! })
        : undefined,
  },
  {
    rule: 'shadow-copies',
    programs: ['vssadmin'],
    test: (_a, lower) =>
      lower.includes('delete') || (lower.includes('resize') && lower.includes('shadowstorage'))
        ? shadows('vssadmin')
        : undefined,
  },
  {
    rule: 'shadow-copies',
    programs: ['wmic'],
    test: (_a, lower) =>
      lower.some((a) => a.includes('shadowcopy')) && lower.includes('delete') ? shadows('wmic') : undefined,
  },
  {
    rule: 'shadow-copies',
    programs: ['wbadmin'],
    test: (_a, lower) => (lower[0] === 'delete' ? shadows('wbadmin') : undefined),
  },
  {
    rule: 'shadow-copies',
    programs: ['bcdedit'],
    // Turning recovery off, or deleting boot entries, is the usual step before ransomware.
    test: (_a, lower) =>
      lower.includes('/delete') || lower.includes('recoveryenabled') || lower.includes('bootstatuspolicy')
        ? shadows('bcdedit')
        : undefined,
  },
  { rule: 'remote-code', programs: ['mshta'], test: () => remote('mshta') },
  {
    rule: 'remote-code',
    programs: ['bitsadmin'],
    test: (args, lower) =>
      lower.some((a) => /^\/(transfer|addfile|download|create|setnotifycmdline)$/.test(a)) ||
      args.some((a) => URL.test(a))
        ? remote('bitsadmin')
        : undefined,
  },
  {
    rule: 'remote-code',
    programs: ['certutil'],
    test: (args, lower) =>
      lower.some((a) => /^[-/](urlcache|verifyctl|url)$/.test(a)) || args.some((a) => URL.test(a))
        ? remote('certutil')
        : undefined,
  },
  {
    rule: 'remote-code',
    programs: ['rundll32', 'regsvr32', 'msiexec', 'cmstp', 'installutil', 'regasm', 'regsvcs', 'msxsl'],
    test: (args, _lower, _ctx, program) =>
      args.some(
        (a) =>
          URL.test(a.replace(/^\/i:/i, '')) ||
          /scrobj|javascript:|vbscript:|runhtmlapplication|url\.dll|zipfldr/i.test(a),
      )
        ? remote(program)
        : undefined,
  },
  {
    // `robocopy empty %USERPROFILE% /MIR`: the destination loses everything not in the source.
    rule: 'mirror-critical',
    programs: ['robocopy'],
    test: (args, lower, ctx) => {
      const flag = args.find((_a, i) => /^\/(mir|purge)$/.test(lower[i]!));
      const move = args.find((_a, i) => /^\/(mov|move)$/.test(lower[i]!));
      const [source, dest] = operands(args);
      if (flag && dest !== undefined && classifyTarget(dest, ctx) !== 'ordinary')
        return refuse('mirror-critical', 'shell.refuse.mirror', { target: showWord(dest), flag });
      if (move && source !== undefined && classifyTarget(source, ctx) !== 'ordinary')
        return refuse('move-critical', 'shell.refuse.moveCritical', { target: showWord(source) });
      return undefined;
    },
  },
];

/** Windows programs that only read or show things: their arguments are never a command. */
export const WINDOWS_NON_RUNNERS = new Set([
  'findstr',
  'tasklist',
  'where',
  'type',
  'more',
  'sort',
  'fc',
  'comp',
  'tree',
  'chcp',
  'ver',
  'vol',
  'hostname',
  'whoami',
  'ipconfig',
  'systeminfo',
  'title',
  'color',
  'clip',
  'certutil',
  'reg',
]);

/** The first Windows rule that refuses this call, if any. */
export function checkWindowsRules(name: string, args: string[], ctx: PathContext): Finding | undefined {
  const lower = args.map((a) => a.toLowerCase());
  for (const r of WINDOWS_RULES) {
    if (!r.programs.includes(name)) continue;
    const found = r.test(args, lower, ctx, name);
    if (found) return found;
  }
  const sw = normalSwitches(args);
  for (const r of WINDOWS_FAMILIES) {
    if (!r.programs.includes(name)) continue;
    const found = r.test(args, sw, ctx, name);
    if (found) return found;
  }
  return ctx.cmd ? checkWindowsEgress(name, args, ctx) : undefined;
}
