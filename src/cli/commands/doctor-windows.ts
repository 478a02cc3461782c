/**
 * `zhi doctor` checks that apply on Windows only: the config's access list (icacls), the shell
 * (cmd.exe) and the console code page. Elsewhere each answers nothing. The missing sandbox is
 * said as a note there, not a failure: no setting gives Windows one today.
 */
import { existsSync } from 'node:fs';
import { type MessageKey, t } from '../../support/i18n/index.js';
import { appPaths } from '../../support/paths.js';
import { restrictAcl } from '../../support/private-files.js';
import { isElevated } from '../../tools/shell/elevation.js';
import { consoleCodePage, encodingOf } from '../../tools/shell/output-decode.js';
import { windowsHelper } from '../../tools/shell/win-helper.js';
import type { AppContext } from '../context.js';
import type { Check } from './doctor-check.js';

export interface WindowsProbe {
  platform: NodeJS.Platform;
  acl(file: string): Promise<boolean>;
  codePage(): Promise<number | undefined>;
  shell(): string | undefined;
  elevated(): Promise<boolean>;
  /** zhi-sandbox.exe, the Job Object helper, when it is there. */
  helper(): string | undefined;
}

const line = (
  ok: boolean,
  key: MessageKey,
  params: Record<string, string | number>,
  tryKey?: MessageKey,
) => ({
  ok,
  lines: [t(key, params), ...(!ok && tryKey ? [t(tryKey, params)] : [])],
});

export const realProbe = (env: NodeJS.ProcessEnv): WindowsProbe => ({
  platform: process.platform,
  acl: (file) => restrictAcl(file),
  codePage: consoleCodePage,
  elevated: () => isElevated(),
  helper: () => windowsHelper(appPaths(env).dataDir),
  shell: () => {
    const comspec = env.ComSpec ?? env.COMSPEC ?? 'C:\\Windows\\System32\\cmd.exe';
    return existsSync(comspec) ? comspec : undefined;
  },
});

/** icacls applied to the config (it holds the key); a failure is reported, never ignored. */
export async function aclCheck(ctx: AppContext, probe = realProbe(ctx.env)): Promise<Check | undefined> {
  const file = ctx.paths.configFile;
  if (probe.platform !== 'win32' || !existsSync(file)) return undefined;
  const ok = await probe.acl(file);
  return line(ok, ok ? 'doctor.win.acl' : 'doctor.win.noAcl', { file }, 'doctor.win.noAclTry');
}

export function shellCheck(ctx: AppContext, probe = realProbe(ctx.env)): Check | undefined {
  if (probe.platform !== 'win32') return undefined;
  const shell = probe.shell();
  return line(
    Boolean(shell),
    shell ? 'doctor.win.shell' : 'doctor.win.noShell',
    { shell: shell ?? 'cmd.exe' },
    'doctor.win.noShellTry',
  );
}

export async function codePageCheck(ctx: AppContext, probe = realProbe(ctx.env)): Promise<Check | undefined> {
  if (probe.platform !== 'win32') return undefined;
  const cp = await probe.codePage();
  return cp === undefined || cp === 0
    ? line(true, 'doctor.win.codePageUnknown', {})
    : line(true, 'doctor.win.codePage', { cp, encoding: encodingOf(cp) });
}

/** An administrator's console is said: a note, since nothing is wrong, but every question says it too. */
export async function elevationCheck(
  ctx: AppContext,
  probe = realProbe(ctx.env),
): Promise<Check | undefined> {
  if (probe.platform !== 'win32') return undefined;
  const elevated = await probe.elevated();
  return { ...line(true, elevated ? 'doctor.win.elevated' : 'doctor.win.notElevated', {}), note: elevated };
}

/** How commands are stopped (the Job Object helper, or taskkill), and the restricted token when on. */
export function jobCheck(ctx: AppContext, probe = realProbe(ctx.env)): Check | undefined {
  if (probe.platform !== 'win32') return undefined;
  if (!probe.helper())
    return { ...line(false, 'doctor.win.noJob', {}, 'doctor.win.noJobTry'), optional: true };
  const restricted = ctx.config.shellSandbox === 'restricted' ? [t('doctor.win.restricted')] : [];
  return { ok: true, lines: [t('doctor.win.job'), ...restricted] };
}

/** On Windows the missing sandbox is a fact to know, not something to fix: a note. */
export function asWindowsNote(c: Check): Check {
  return process.platform === 'win32' ? { ...c, ok: true, note: true } : c;
}
