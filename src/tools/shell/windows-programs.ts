/**
 * What a Windows command line runs, as cmd.exe finds it (issue 38 point 1): a program or script
 * on a share or a web address is remote code; a program in the working folder (cmd.exe looks
 * there before PATH, trying PATHEXT's extensions) is one zhi cannot read, and a script whose
 * language zhi cannot check (VBScript, JScript, WSF, HTA) is run unread — both refused. A batch
 * file of the working folder is found here and read by script-files.ts like any other.
 * Explorer runs what it is given to open, so a program or script given to it is treated alike.
 */
import { existsSync } from 'node:fs';
import { posix, win32 } from 'node:path';
import type { Finding } from './findings.js';
import { refuse } from './findings.js';
import { type SimpleCommand, showWord } from './parse.js';
import { checkPrograms } from './program-checks.js';
import type { PathContext } from './targets.js';
import { checkWindowsRules } from './windows-rules.js';

/** cmd.exe's default PATHEXT, in its order. */
const PATHEXT = ['.com', '.exe', '.bat', '.cmd', '.vbs', '.vbe', '.js', '.jse', '.wsf', '.wsh', '.msc'];
/** What Windows runs when asked to open it, beyond .exe and .com. */
const RUNNABLE =
  /\.(exe|com|bat|cmd|ps1|vbs|vbe|js|jse|wsf|wsh|hta|lnk|reg|msi|msp|scr|pif|cpl|url|appref-ms|application)$/i;
/** Scripts in a language zhi's checks do not read. */
const UNCHECKED_SCRIPT = /\.(vbs|vbe|js|jse|wsf|wsh|hta)$/i;
/** A share, a WebDAV path or a web address: `\\host\x`, `//host/x`, `\\?\UNC\…`, `http://…`. */
const REMOTE = /^(\\\\|\/\/)[^\\/]+[\\/]|^(https?|ftp|file):\/\//i;

const remote = (program: string) => refuse('remote-code', 'shell.refuse.remoteCode', { program });
const unread = (file: string) =>
  refuse('script-unread', 'shell.refuse.scriptUnread', { file: showWord(file) });
const localProgram = (file: string) =>
  refuse('local-program', 'shell.refuse.localProgram', { file: showWord(file) });

/** Programs that run a script file given as an argument (the first operand). */
const SCRIPT_HOSTS = new Set(['cscript', 'wscript', 'mshta', 'msbuild']);
/** Programs that open what they are given, running it when it is a program or script. */
const OPENERS = new Set(['explorer', 'rundll32']);
/**
 * Programs that load and run code from a file they are given: a DLL (`rundll32 x.dll,Entry`,
 * `regsvr32`, `regasm`, `installutil`), an installer (`msiexec /i`), a compiled help file (`hh`),
 * a control-panel item, a build project's tasks (`msbuild`).
 */
const CODE_HOSTS = new Set([
  'rundll32',
  'regsvr32',
  'regasm',
  'regsvcs',
  'installutil',
  'msiexec',
  'hh',
  'control',
  'odbcconf',
  'cmstp',
  'msbuild',
]);

function operand(args: string[]): string | undefined {
  return args.find((a) => !/^[/-]/.test(a));
}

/** The file a code host loads (`x.dll` of `rundll32 x.dll,Start`), as written. */
function hostedFile(name: string, args: string[]): string | undefined {
  const file = operand(args);
  return name === 'rundll32' ? file?.split(',')[0] : file;
}

/** Windows' own folder (`C:\Windows\System32\shell32.dll`, or a bare system DLL name). */
const SYSTEM_FILE = /^([a-z]:\\windows|%(systemroot|windir)%)\\/i;

/**
 * A file a code host would load that zhi cannot vouch for: one given by a path outside Windows'
 * folder, or a bare name found in the working folder; a build project only in the output folder
 * (written during the work), since building the person's own project is everyday work.
 */
function loadsUnreadCode(name: string, file: string, ctx: PathContext): boolean {
  const path = file.replace(/\//g, '\\').replace(/"/g, '');
  if (name === 'msbuild') return inOutputFolder(path, ctx);
  if (SYSTEM_FILE.test(path)) return false;
  return /\\/.test(path) || inWorkingFolder(path, ctx) !== undefined;
}

function inOutputFolder(path: string, ctx: PathContext): boolean {
  const slash = (p: string) => p.replace(/\\/g, '/').toLowerCase().replace(/\/+$/, '');
  const cwd = slash(ctx.cwd);
  const output = ctx.output ? slash(ctx.output) : `${cwd}/zhi-output`;
  const full = /^[a-z]:|^\//i.test(slash(path)) ? slash(path) : `${cwd}/${slash(path)}`;
  return full === output || full.startsWith(`${output}/`);
}

/** The file a bare program name resolves to in the working folder, as cmd.exe looks first. */
function inWorkingFolder(program: string, ctx: PathContext): string | undefined {
  if (ctx.cwd === '' || /[\\/:]/.test(program)) return undefined;
  const join = /^[a-z]:/i.test(ctx.cwd) ? win32.join : posix.join;
  const names = /\.[a-z0-9]+$/i.test(program) ? [program] : PATHEXT.map((ext) => `${program}${ext}`);
  return names.find((n) => existsSync(join(ctx.cwd, n)));
}

/** The finding on the program a Windows line runs, or undefined when it is an ordinary one. */
export function checkWindowsProgram(
  program: string,
  name: string,
  args: string[],
  ctx: PathContext,
): Finding | undefined {
  if (REMOTE.test(program)) return remote(showWord(program));
  if (name === 'syncappvpublishingserver') return remote(name);
  if (SCRIPT_HOSTS.has(name)) {
    const file = operand(args);
    if (file !== undefined && REMOTE.test(file)) return remote(name);
    if (file !== undefined && name !== 'msbuild' && UNCHECKED_SCRIPT.test(file)) return unread(file);
  }
  if (CODE_HOSTS.has(name)) {
    const file = hostedFile(name, args);
    if (file !== undefined && REMOTE.test(file)) return remote(name);
    if (file !== undefined && loadsUnreadCode(name, file, ctx)) return localProgram(file);
  }
  if (OPENERS.has(name)) {
    const file = operand(args);
    if (file !== undefined && REMOTE.test(file)) return remote(name);
    if (file !== undefined && RUNNABLE.test(file))
      return /\.(bat|cmd)$/i.test(file) ? unread(file) : localProgram(file);
  }
  // `.\x.exe` is the working folder's x.exe, as a bare `x` is.
  const local = inWorkingFolder(program.replace(/^\.[\\/]/, ''), ctx);
  if (local && /\.(exe|com|msc)$/i.test(local)) return localProgram(local);
  if (local && UNCHECKED_SCRIPT.test(local)) return unread(local);
  return undefined;
}

/** A bare name that is a batch file of the working folder (`x` → `x.bat`), to be read as one. */
export function localBatchFile(program: string, ctx: PathContext): string | undefined {
  const local = inWorkingFolder(program, ctx);
  return local && /\.(bat|cmd)$/i.test(local) && local !== program ? local : undefined;
}

/**
 * Windows' own findings on a command: what it runs as cmd.exe finds it (windows-programs.ts),
 * then the Windows families. True when one was found (pushed to `out`).
 */
export function windowsFindings(
  program: string,
  name: string,
  args: string[],
  cmd: SimpleCommand,
  ctx: PathContext,
  out: Finding[],
): boolean {
  const located = ctx.cmd ? checkWindowsProgram(program, name, args, ctx) : undefined;
  if (located) {
    out.push(located);
    return true;
  }
  const windows = checkWindowsRules(name, args, ctx);
  if (!windows) return false;
  out.push(windows);
  // A warning (`xcopy` overwrites) may hide a refusal of what it writes (a system file).
  const written = windows.level === 'warn' ? checkPrograms(name, args, cmd, ctx, 'writes') : undefined;
  if (written) out.push(written);
  return true;
}
