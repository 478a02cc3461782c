/**
 * cmd.exe's variable expansion, as it happens to a command line run with `cmd /d /s /c`:
 * `%VAR%`, `%VAR:~a,b%` and `%VAR:a=b%` before the line is split into commands (phase 1, so a
 * value holding `&` starts a new command), and delayed `!VAR!` inside each word afterwards.
 * Values come from the environment the command will run with (case-insensitive names); the
 * dynamic variables cmd computes itself (`%CD%`, `%RANDOM%`, …) are the current folder or marked
 * as known only at run time. Whatever cannot be read with certainty is reported, not guessed.
 */
import { SUB_PREFIX, VAR_END, VAR_START } from './parse.js';

/** Environment lookup with cmd's case-insensitive names. */
export type CmdEnv = ReadonlyMap<string, string>;

export function cmdEnv(env: Record<string, string | undefined>): CmdEnv {
  const map = new Map<string, string>();
  for (const [k, v] of Object.entries(env)) if (v !== undefined) map.set(k.toLowerCase(), v);
  return map;
}

/** A value only known when the command runs (`%RANDOM%`, a `for /f` token). */
export function runtimeValue(name: string): string {
  return `${VAR_START}${SUB_PREFIX}${name}${VAR_END}`;
}

const RUNTIME = new Set([
  'date',
  'time',
  'random',
  'errorlevel',
  'cmdextversion',
  'highestnumanodenumber',
  '__appdir__',
]);

export class CmdExpansionError extends Error {
  constructor(readonly reason: 'modifier' | 'cmdcmdline') {
    super(reason);
  }
}

/** Where a variable's value comes from: the environment, cmd's own, or nowhere (undefined). */
function lookup(name: string, env: CmdEnv, cwd: string): string | undefined {
  const key = name.toLowerCase();
  const value = env.get(key);
  if (value !== undefined) return value;
  if (key === 'cd') return cwd;
  if (key === '__cd__') return `${cwd.replace(/\\$/, '')}\\`;
  if (key === 'cmdcmdline') throw new CmdExpansionError('cmdcmdline');
  if (RUNTIME.has(key)) return runtimeValue(key);
  return undefined;
}

/** A number as cmd's substring modifier reads it (C's strtol, base 0: `0x1f`, `017`, `-3`). */
function cmdNumber(s: string): number {
  const m = /^\s*([+-]?)(0x[0-9a-f]+|0[0-7]*|[1-9][0-9]*)\s*$/i.exec(s);
  if (!m) throw new CmdExpansionError('modifier');
  const body = m[2]!;
  const n = /^0x/i.test(body)
    ? Number.parseInt(body, 16)
    : body.startsWith('0')
      ? Number.parseInt(body || '0', 8)
      : Number(body);
  return m[1] === '-' ? -n : n;
}

/** `:~a,b` (substring) or `:old=new` (replace, `*old` from the start) applied to a value. */
export function applyModifier(value: string, modifier: string): string {
  if (modifier.startsWith('~')) {
    const [a, b] = modifier.slice(1).split(',') as [string, string | undefined];
    let start = cmdNumber(a);
    if (start < 0) start = Math.max(0, value.length + start);
    const rest = value.slice(start);
    if (b === undefined) return rest;
    const len = cmdNumber(b);
    return len >= 0 ? rest.slice(0, len) : rest.slice(0, Math.max(0, rest.length + len));
  }
  const eq = modifier.indexOf('=');
  if (eq <= 0) throw new CmdExpansionError('modifier');
  const from = modifier.slice(0, eq);
  const to = modifier.slice(eq + 1);
  if (from === '*') throw new CmdExpansionError('modifier');
  const lower = value.toLowerCase();
  if (from.startsWith('*')) {
    const at = lower.indexOf(from.slice(1).toLowerCase());
    return at < 0 ? value : to + value.slice(at + from.length - 1);
  }
  let out = '';
  let i = 0;
  const needle = from.toLowerCase();
  for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, i)) {
    out += value.slice(i, at) + to;
    i = at + needle.length;
  }
  return out + value.slice(i);
}

/**
 * Phase 1 on a command line. cmd keeps an undefined `%NAME%` as it is; whether scanning then goes
 * on after its closing `%` or at it is not documented, so both readings are returned when they
 * differ, and the policy checks each.
 */
export function expandPercent(line: string, env: CmdEnv, cwd: string): string[] {
  const a = percentPass(line, env, cwd, true);
  const b = percentPass(line, env, cwd, false);
  return a === b ? [a] : [a, b];
}

function percentPass(line: string, env: CmdEnv, cwd: string, skipClosing: boolean): string {
  let out = '';
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    const close = c === '%' ? line.indexOf('%', i + 1) : -1;
    if (close < 0) {
      out += c;
      i++;
      continue;
    }
    const body = line.slice(i + 1, close);
    const value = expandBody(body, env, cwd);
    if (value !== undefined) {
      out += value;
      i = close + 1;
    } else if (skipClosing) {
      out += line.slice(i, close + 1);
      i = close + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** `NAME` or `NAME:modifier` between two `%` (or `!`); undefined when NAME is not set. */
function expandBody(body: string, env: CmdEnv, cwd: string): string | undefined {
  if (body === '') return undefined;
  const colon = body.indexOf(':');
  const name = colon < 0 ? body : body.slice(0, colon);
  if (name === '') return undefined;
  const value = lookup(name, env, cwd);
  if (value === undefined) return undefined;
  return colon < 0 ? value : applyModifier(value, body.slice(colon + 1));
}

/**
 * Delayed expansion (`!VAR!`), applied to one word after the line was split. It is on only with
 * `cmd /v:on` or a registry setting nobody can see from here, so the policy checks the word both
 * ways. An undefined name expands to nothing.
 */
export function expandDelayed(word: string, env: CmdEnv, cwd: string): string {
  if (!word.includes('!')) return word;
  return word.replace(/!([^!]+)!/g, (_, body: string) => expandBody(body, env, cwd) ?? '');
}

/**
 * Names a line assigns with `set` (`set X=…`, `set "X=…"`, `set /a X=…`, `set /p X=…`): a later
 * `%X%` on the same line expands to the value from before the line ran, a `call` or `!X!` to the
 * new one — which one runs cannot be known here.
 */
export function assignedThenUsed(line: string): string | undefined {
  const re = /\bset(?:\s+\/[ap])?\s+"?([^\s="^&|<>]+)\s*(?:\+|-|\*|\/|%|&|\||\^|<<|>>)?=/gi;
  for (const m of line.matchAll(re)) {
    // `set PATH=%PATH%;x` reads the old value, as everyone expects; a later command may not.
    const rest = line.slice(m.index + m[0].length);
    const next = rest.search(/[&|]/);
    if (next < 0) continue;
    const esc = m[1]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (new RegExp(`[%!]${esc}[%!:]`, 'i').test(rest.slice(next))) return m[1]!.toLowerCase();
  }
  return undefined;
}

/**
 * The environment of a Windows user whose profile is `home`: for checking cmd.exe lines where
 * the real environment is not Windows' (the unit tests on Linux).
 */
export function windowsEnvFor(home: string): Record<string, string> {
  const profile = home.replace(/\//g, '\\');
  const drive = /^[a-z]:/i.exec(profile)?.[0] ?? 'C:';
  return {
    USERPROFILE: profile,
    HOMEDRIVE: drive,
    HOMEPATH: profile.slice(drive.length) || '\\',
    SystemDrive: 'C:',
    SystemRoot: 'C:\\Windows',
    windir: 'C:\\Windows',
    ProgramFiles: 'C:\\Program Files',
    'ProgramFiles(x86)': 'C:\\Program Files (x86)',
    ProgramData: 'C:\\ProgramData',
    ALLUSERSPROFILE: 'C:\\ProgramData',
    PUBLIC: 'C:\\Users\\Public',
    APPDATA: `${profile}\\AppData\\Roaming`,
    LOCALAPPDATA: `${profile}\\AppData\\Local`,
    TEMP: `${profile}\\AppData\\Local\\Temp`,
    TMP: `${profile}\\AppData\\Local\\Temp`,
    USERNAME: profile.split('\\').pop() ?? 'user',
    ComSpec: 'C:\\Windows\\system32\\cmd.exe',
  };
}
