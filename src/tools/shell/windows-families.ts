/**
 * The Windows families people attack a computer with, as data (issue 38): persistence (a program
 * started at sign-in, by a task, a service or a WMI subscription), system configuration (boot,
 * disks, logs, accounts, shares, the firewall, PATH-like variables, the registry's secret hives)
 * and junctions out of the working folder. Each rule sees the arguments with switches normalised
 * (`-create` and `/create:x` are `/create`), after the program's name was resolved as cmd.exe
 * resolves it (`POWERS~1.EXE`, `C:\Windows\System32\bcdedit.exe`).
 */

import type { Finding } from './findings.js';
import { refuse } from './findings.js';
import { showWord } from './parse.js';
import { classifyTarget, type PathContext } from './targets.js';

export interface FamilyRule {
  /** Stable name, for tests and logs. */
  rule: string;
  programs: string[];
  /** `sw` are the arguments lowercased with `-x`, `/x:value` written `/x`. */
  test: (args: string[], sw: string[], ctx: PathContext, program: string) => Finding | undefined;
}

/** `-create` → `/create`, `/w:C:\` → `/w`, `/tn` stays; other words lowercased. */
export function normalSwitches(args: readonly string[]): string[] {
  return args.map((a) => {
    const l = a.toLowerCase();
    const m = /^[-/]([a-z?][a-z0-9?]*)(?:[:=].*)?$/.exec(l);
    return m ? `/${m[1]}` : l;
  });
}

/** Programs whose 8.3 short name (`POWERS~1`) is resolved to the long one. */
const LONG_NAMES = [
  'powershell',
  'schtasks',
  'bcdedit',
  'vssadmin',
  'wbadmin',
  'diskshadow',
  'wevtutil',
  'mountvol',
  'forfiles',
  'bitsadmin',
  'certutil',
  'rundll32',
  'regsvr32',
  'msiexec',
  'mshta',
  'cscript',
  'wscript',
  'robocopy',
  'explorer',
  'regedit',
  'installutil',
];

/** A program name as cmd.exe finds it: `POWERS~1` is `powershell` (the name is already lowercased). */
export function longName(name: string): string {
  const m = /^([a-z0-9_-]{1,6})~\d+$/.exec(name);
  if (!m) return name;
  const found = LONG_NAMES.filter((n) => n.startsWith(m[1]!));
  return found.length === 1 ? found[0]! : name;
}

const persist = (what: string) => refuse('persistence', 'shell.refuse.persistence', { what });
const system = (program: string) => refuse('system-config', 'shell.refuse.systemConfig', { program });

/** Registry keys where a value starts a program later (sign-in, every cmd, every program start). */
const AUTOSTART =
  /\\(run|runonce|runonceex|runservices|runservicesonce|winlogon|command processor|image file execution options|silentprocessexit|shell folders|user shell folders|appcertdlls|boot execute|active setup|explorer\\shell|policies\\system)(\\|$)|\\software\\classes\\|^(hkcr|hkey_classes_root)(\\|$)|\\windows nt\\currentversion\\windows(\\|$)|\\services\\/i;
const AUTOSTART_VALUE = /^(autorun|userinitmprlogonscript|userinit|shell|appinit_dlls|load|debugger)$/i;

/** The registry hives that hold password hashes and the machine's secrets. */
const SECRET_HIVE = /^(hklm|hkey_local_machine)\\(sam|security|system)(\\|$)/i;

/** Variables that decide which program or code runs: set them and another program runs instead. */
export const PATH_LIKE = new Set([
  'path',
  'pathext',
  'comspec',
  'psmodulepath',
  'pythonpath',
  'pythonstartup',
  'node_options',
  'node_path',
  'java_tool_options',
  '_java_options',
  'perl5opt',
  'perl5lib',
  'rubyopt',
  'dotnet_startup_hooks',
  'cor_profiler_path',
  'coreclr_profiler_path',
]);

const STARTUP = /\\start menu\\programs\\startup(\\|$)/i;
const operands = (args: string[]) => args.filter((a) => !/^[/-]/.test(a));

/**
 * The entries of a PATH value given as words: cmd's reader split it at `;` and spaces, so a word
 * after an absolute entry that starts no path of its own (`C:\\Program` `Files\\x`) is joined back.
 */
function pathEntries(words: string[]): string[] {
  const out: string[] = [];
  for (const w of words.join(';').split(';')) {
    const e = w.replace(/"/g, '').trim().toLowerCase();
    const prev = out[out.length - 1];
    if (prev !== undefined && /^[a-z]:\\/.test(prev) && !/^([a-z]:|\.|\\|%)/.test(e))
      out[out.length - 1] = `${prev} ${e}`;
    else if (e !== '') out.push(e);
  }
  return out;
}

/** A PATH value with an entry that is relative, in the working folder or a share: a hijack. */
function hijacks(words: string[], ctx: PathContext): boolean {
  const cwd = ctx.cwd.replace(/\//g, '\\').toLowerCase();
  return pathEntries(words).some((e) => {
    // An unknown variable (`%PATH%` when the environment has none) is the old value.
    if (/^%[^%]+%$/.test(e)) return false;
    if (/^\\\\/.test(e) || !/^[a-z]:\\/.test(e)) return true;
    return cwd !== '' && (e === cwd || e.startsWith(`${cwd}\\`));
  });
}

const PERSISTENCE: FamilyRule[] = [
  {
    rule: 'persistence',
    programs: ['reg'],
    test: (args, sw) => {
      const [verb, key = ''] = [sw[0], args[1]];
      if (verb === 'import' || verb === 'restore' || verb === 'load') return persist(`reg ${verb}`);
      if (verb !== 'add' && verb !== 'copy') return undefined;
      const at = sw.indexOf('/v');
      const value = at >= 0 ? (args[at + 1] ?? '') : '';
      // `HKCU\Environment` is where setx writes: a PATH-like value there is a hijack at sign-in.
      const environment = /\\environment$/i.test(key) && PATH_LIKE.has(value.toLowerCase());
      return AUTOSTART.test(key) || AUTOSTART_VALUE.test(value) || STARTUP.test(key) || environment
        ? persist(`reg ${verb} ${key}`)
        : undefined;
    },
  },
  {
    rule: 'persistence',
    programs: ['regedit', 'regini'],
    test: (args, _sw, _ctx, program) => (operands(args).length ? persist(program) : undefined),
  },
  {
    rule: 'persistence',
    programs: ['schtasks', 'at'],
    test: (args, sw, _ctx, program) =>
      // `/run` starts a task's program now, outside the command's Job Object and zhi's view.
      sw.some((a) => ['/create', '/change', '/delete', '/xml', '/run'].includes(a)) ||
      (program === 'at' && args.some((a) => /^\d{1,2}:\d{2}/.test(a)))
        ? persist(program)
        : undefined,
  },
  {
    rule: 'persistence',
    programs: ['sc'],
    test: (_a, sw) =>
      sw.some((a) => ['create', 'config', 'delete', 'failure', 'sdset', 'triggerinfo'].includes(a))
        ? persist('sc')
        : sw.some((a) => ['stop', 'pause'].includes(a))
          ? system(`sc ${sw.find((a) => a === 'stop' || a === 'pause')}`)
          : undefined,
  },
  {
    rule: 'persistence',
    programs: ['wmic'],
    test: (_a, sw) =>
      sw.some((a) => /__eventfilter|eventconsumer|__filtertoconsumerbinding|\\subscription/.test(a))
        ? persist('wmic')
        : undefined,
  },
  {
    rule: 'persistence',
    programs: ['copy', 'xcopy', 'move', 'robocopy', 'mklink', 'expand', 'extrac32', 'replace'],
    test: (args, _sw, _ctx, program) => {
      const target = args.find((a) => STARTUP.test(a));
      return target === undefined ? undefined : persist(`${program} ${showWord(target)}`);
    },
  },
];

const SYSTEM: FamilyRule[] = [
  {
    rule: 'system-config',
    programs: ['bcdedit', 'bcdboot', 'diskshadow'],
    test: (args, sw, _c, p) =>
      p === 'bcdedit' && (args.length === 0 || sw.every((a) => a === '/enum' || a === '/v' || a === 'all'))
        ? undefined
        : system(p),
  },
  {
    rule: 'system-config',
    programs: ['cipher'],
    test: (_a, sw) =>
      sw.some((a) => ['/w', '/e', '/d', '/k', '/r', '/rekey', '/x'].includes(a))
        ? system('cipher')
        : undefined,
  },
  {
    rule: 'system-config',
    programs: ['fsutil'],
    // Only its questions are allowed (`fsutil fsinfo drives`, `fsutil volume diskfree C:`).
    test: (_a, sw) => (sw.some((a) => /^(fsinfo|diskfree|query.*)$/.test(a)) ? undefined : system('fsutil')),
  },
  {
    rule: 'system-config',
    programs: ['mountvol'],
    test: (_a, sw) =>
      sw.some((a) => ['/d', '/p', '/r', '/n', '/s'].includes(a)) ? system('mountvol') : undefined,
  },
  {
    rule: 'system-config',
    programs: ['wevtutil'],
    test: (_a, sw) =>
      ['cl', 'clear-log', 'sl', 'set-log', 'um', 'uninstall-manifest', 'im', 'install-manifest'].includes(
        sw[0] ?? '',
      )
        ? system('wevtutil')
        : undefined,
  },
  {
    rule: 'system-config',
    programs: ['net', 'net1'],
    test: (args, sw) => {
      const sub = sw[0] ?? '';
      const changes = sw.some((a) => ['/add', '/delete', '/del', '/active', '/domain'].includes(a));
      if (['user', 'localgroup', 'group', 'accounts'].includes(sub) && (changes || operands(args).length > 2))
        return system(`net ${sub}`);
      if (sub === 'share' && args.length > 1) return system('net share');
      if (['stop', 'start', 'pause', 'config'].includes(sub) && args.length > 1) return system(`net ${sub}`);
      return undefined;
    },
  },
  {
    rule: 'system-config',
    programs: ['netsh'],
    test: (_a, sw) =>
      (sw.some((a) => a === 'advfirewall' || a === 'firewall') &&
        sw.some((a) => ['off', 'disable', 'reset', 'add', 'delete', 'set'].includes(a))) ||
      sw.includes('key=clear') ||
      sw.includes('portproxy') ||
      (sw.includes('winhttp') && sw.includes('set'))
        ? system('netsh')
        : undefined,
  },
  {
    rule: 'system-config',
    programs: ['setx'],
    test: (args, sw) =>
      PATH_LIKE.has(sw[0] ?? '') || sw.includes('/m') ? system(`setx ${args[0] ?? ''}`) : undefined,
  },
  {
    rule: 'path-hijack',
    programs: ['set', 'path'],
    test: (args, _sw, ctx, program) => {
      if (!ctx.cmd || !args.length) return undefined;
      const first = args[0]!.replace(/^"/, '');
      const eq = first.indexOf('=');
      const name = (program === 'path' ? 'path' : first.slice(0, eq)).toLowerCase();
      if ((program === 'set' && eq < 0) || !PATH_LIKE.has(name)) return undefined;
      const value = program === 'path' ? args : [first.slice(eq + 1), ...args.slice(1)];
      return name !== 'path' || hijacks(value, ctx)
        ? refuse('path-hijack', 'shell.refuse.pathHijack', { name: name.toUpperCase() })
        : undefined;
    },
  },
  {
    rule: 'hive-dump',
    programs: ['reg'],
    test: (args, sw) =>
      (sw[0] === 'save' || sw[0] === 'export' || sw[0] === 'copy') && SECRET_HIVE.test(args[1] ?? '')
        ? refuse('hive-dump', 'shell.refuse.hiveDump', { key: args[1]! })
        : undefined,
  },
  {
    rule: 'system-config',
    programs: ['wmic'],
    // `wmic useraccount … set disabled=true`, `wmic service … call delete`: accounts, services, shares.
    test: (_a, sw) =>
      sw.some((a) => /^(useraccount|group|share|service|startup|nicconfig|os|computersystem|qfe)$/.test(a)) &&
      sw.some((a) => ['set', 'call', 'create', 'delete'].includes(a))
        ? system('wmic')
        : undefined,
  },
  {
    rule: 'system-config',
    programs: ['reg'],
    // Group policy (`…\Policies\…`): Defender, UAC, updates and the like, changed under the person.
    test: (args, sw) =>
      ['add', 'delete', 'copy'].includes(sw[0] ?? '') && /\\policies(\\|$)/i.test(args[1] ?? '')
        ? system(`reg ${sw[0]} ${args[1]}`)
        : undefined,
  },
  {
    rule: 'system-config',
    programs: ['auditpol'],
    test: (_a, sw) =>
      sw.some((a) => ['/get', '/list', '/backup', '/?'].includes(a)) ? undefined : system('auditpol'),
  },
  {
    rule: 'system-config',
    programs: ['bootrec', 'bootsect'],
    test: (_a, _sw, _c, p) => system(p),
  },
  {
    rule: 'system-config',
    programs: ['vssadmin'],
    test: (_a, sw) => (sw[0] === 'list' ? undefined : system('vssadmin')),
  },
  {
    rule: 'system-config',
    programs: ['wbadmin'],
    test: (_a, sw) => (sw[0] === 'get' ? undefined : system('wbadmin')),
  },
];

const JUNCTIONS: FamilyRule[] = [
  {
    // `mklink /j x C:\Users\ann & rd /s /q x`: a delete through the link reaches its target.
    rule: 'junction-out',
    programs: ['mklink'],
    test: (args, sw, ctx) => {
      if (!sw.some((a) => a === '/j' || a === '/d')) return undefined;
      const target = operands(args)[1];
      if (target === undefined) return undefined;
      const cwd = ctx.cwd.replace(/\//g, '\\').toLowerCase();
      const t = target.replace(/\//g, '\\').toLowerCase();
      const inside = !/^[a-z]:|^\\/.test(t)
        ? !t.split('\\').includes('..')
        : t === cwd || t.startsWith(`${cwd}\\`);
      return inside && classifyTarget(target, ctx) === 'ordinary'
        ? undefined
        : refuse('junction-out', 'shell.refuse.junction', { target: showWord(target) });
    },
  },
];

/** The families, in order: persistence, system configuration, junctions. */
export const WINDOWS_FAMILIES: readonly FamilyRule[] = [...PERSISTENCE, ...SYSTEM, ...JUNCTIONS];
