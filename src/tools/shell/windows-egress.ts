/**
 * Secrets and files leaving the computer, on Windows (issue 38 point 2), where no sandbox hides
 * the secrets list's places: a word naming one of them in any spelling (`@file`, `f=@file`,
 * `-s:file`), a recursive search or copy of a folder that holds one (`findstr /s key %APPDATA%`),
 * and files sent elsewhere (`curl -F/-d @/-T`, `Invoke-WebRequest -InFile`, scp/sftp/ftp, a copy
 * to `\\host\share`, `net use`). Sending a file from outside the working folder is refused; the
 * working folder's own files are asked with a warning that they leave the computer. One list:
 * `secretByPath` (tools/secrets.ts) and zhi's folders where Windows keeps them (`%APPDATA%\zhi`).
 */
import { posix } from 'node:path';
import { HOME_SECRETS, secretByPath } from '../secrets.js';
import type { Finding } from './findings.js';
import { refuse, warn } from './findings.js';
import { showWord } from './parse.js';
import type { PathContext } from './targets.js';

/** An absolute path, forward slashes, lowercased; undefined for a URL, a variable or a switch. */
function absolute(word: string, ctx: PathContext): string | undefined {
  const p = word.replace(/"/g, '').replace(/\\/g, '/');
  if (p === '' || p === '-' || /%|^[a-z][a-z0-9+.-]*:\/\/|^\/[a-z?]$/i.test(p) || /^[^/]*@[^/]*:/.test(p))
    return undefined;
  if (/^\/\//.test(p)) return p.toLowerCase();
  if (/^[a-z]:\//i.test(p)) return posix.normalize(p).toLowerCase();
  if (ctx.cwd === '' || /^[a-z]:|^\//i.test(p)) return undefined;
  return posix.join(ctx.cwd, p).toLowerCase();
}

/**
 * zhi's own folders where Windows keeps them (env-paths: `%APPDATA%\zhi`, `%LOCALAPPDATA%\zhi`),
 * and `ZHI_HOME` when set: the usual places stay protected even then (another zhi, an old key).
 */
function zhiPlaces(ctx: PathContext): string[] {
  const v = (name: string) => ctx.cmd?.get(name.toLowerCase())?.replace(/\\/g, '/').toLowerCase();
  return [
    v('ZHI_HOME'),
    v('APPDATA') && `${v('APPDATA')}/zhi`,
    v('LOCALAPPDATA') && `${v('LOCALAPPDATA')}/zhi`,
  ].filter((d): d is string => Boolean(d));
}

const within = (parent: string, child: string) => child === parent || child.startsWith(`${parent}/`);

/** Whether the place is a secret, or (for a recursive reach) a folder holding one. */
function secretAt(abs: string, ctx: PathContext, recursive: boolean): boolean {
  const home = ctx.home.toLowerCase();
  // `findstr /s key %APPDATA%\*`: the folder searched.
  const place = recursive && /[*?]/.test(posix.basename(abs)) ? posix.dirname(abs) : abs;
  const places = [...zhiPlaces(ctx), ...HOME_SECRETS.map((s) => `${home}/${s.path.toLowerCase()}`)];
  if (places.some((z) => within(z, place) || (recursive && within(place, z)))) return true;
  return secretByPath(abs, { home: ctx.home, env: {} }) !== undefined;
}

/** The paths a word may name: itself, and what follows `@`, `name=@`, `/x:` and `-x:`. */
function candidates(word: string): string[] {
  const out = [word];
  const at = /^(?:[^=@]*=)?@([^;]+)/.exec(word);
  if (at) out.push(at[1]!);
  const colon = /^[-/][a-z]+:(.+)$/i.exec(word);
  if (colon) out.push(colon[1]!);
  return out;
}

const RECURSIVE = /^[-/](s|e|r|mir|recurse)$/i;
const ALWAYS_RECURSIVE = new Set(['robocopy', 'tar', '7z', 'compress-archive', 'scp', 'pscp', 'tree']);

/** A word of the call naming a secret, or a folder holding one searched or copied whole. */
function secretWord(name: string, args: string[], ctx: PathContext): string | undefined {
  const recursive = ALWAYS_RECURSIVE.has(name) || args.some((a) => RECURSIVE.test(a));
  return args.find((a) =>
    candidates(a).some((c) => {
      const abs = absolute(c, ctx);
      return abs !== undefined && secretAt(abs, ctx, recursive);
    }),
  );
}

/** Files a call sends elsewhere: the paths it uploads. */
function uploads(name: string, args: string[]): string[] | undefined {
  const lower = args.map((a) => a.toLowerCase());
  const after = (flags: string[]) => args.filter((_a, i) => i > 0 && flags.includes(lower[i - 1]!));
  if (name === 'curl') {
    const sent = [
      ...after(['-t', '--upload-file']),
      ...after([
        '-f',
        '--form',
        '-d',
        '--data',
        '--data-binary',
        '--data-raw',
        '--data-urlencode',
        '--json',
      ]).flatMap((v) => /@([^;]+)/.exec(v)?.[1] ?? []),
    ].map((p) => p.replace(/"/g, ''));
    return sent.filter((p) => p !== '-');
  }
  if (['invoke-webrequest', 'iwr', 'invoke-restmethod', 'irm'].includes(name)) return after(['-infile']);
  if (['scp', 'pscp', 'sftp', 'psftp', 'rsync'].includes(name)) {
    if (!args.some((a) => /^[^\\/:]+:/.test(a) && !/^[a-z]:/i.test(a))) return [];
    return args.filter((a) => !a.startsWith('-') && !/^[^\\/:]{2,}:/.test(a));
  }
  if (['robocopy', 'xcopy', 'copy', 'move'].includes(name)) {
    const ops = args.filter((a) => !/^[/-]/.test(a));
    const dest = ops[ops.length - 1];
    return dest !== undefined && ops.length > 1 && /^\\\\[^\\?.]/.test(dest) ? ops.slice(0, -1) : [];
  }
  return undefined;
}

/**
 * The first word naming a secret place on Windows, or a folder holding one that the call reaches
 * whole; checked with the other secret words, after the more specific refusals (`rd /s /q C:\`).
 */
export function windowsSecretIn(name: string, words: string[], ctx: PathContext): string | undefined {
  return ctx.cmd ? secretWord(name, words, ctx) : undefined;
}

/** Files one call of a program sends out on Windows (a secret among them is refused as one). */
export function checkWindowsEgress(name: string, args: string[], ctx: PathContext): Finding | undefined {
  if (name === 'net' && args[0]?.toLowerCase() === 'use' && args.length > 1)
    return refuse('egress', 'shell.refuse.netUse', {});
  if (name === 'ftp' && args.some((a) => /^[-/]s:/i.test(a)))
    return refuse('egress', 'shell.refuse.scriptedTransfer', { program: 'ftp -s' });
  if ((name === 'sftp' || name === 'psftp') && args.some((a) => /^-b/.test(a)))
    return refuse('egress', 'shell.refuse.scriptedTransfer', { program: `${name} -b` });
  const sent = uploads(name, args);
  if (!sent?.length) return undefined;
  const secret = secretWord(name, sent, ctx);
  if (secret !== undefined) return refuse('secret', 'shell.refuse.secret', { target: showWord(secret) });
  const cwd = ctx.cwd.toLowerCase();
  const outside = sent.find((p) => {
    const abs = absolute(p, ctx);
    return abs === undefined || cwd === '' || !within(cwd, abs);
  });
  if (outside !== undefined)
    return refuse('egress', 'shell.refuse.egress', { file: showWord(outside), program: name });
  return warn('egress', 'shell.warn.egress', { file: sent.map(showWord).join(', '), program: name });
}
