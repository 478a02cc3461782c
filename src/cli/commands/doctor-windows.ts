/**
 * `zhi doctor` on Windows: what applies there — the key, the network, the config file, its access
 * list (icacls), the shell (cmd.exe) and the console code page — each a line with what to try when
 * it needs attention. The missing sandbox is said as information, not as a failure: no setting
 * gives Windows one today (docs/architecture.md says what would).
 */
import { existsSync } from 'node:fs';
import { type MessageKey, t } from '../../support/i18n/index.js';
import { restrictAcl } from '../../support/private-files.js';
import { consoleCodePage, encodingOf } from '../../tools/shell/output-decode.js';
import type { AppContext } from '../context.js';

export interface Check {
  ok: boolean;
  lines: string[];
}

const line = (
  ok: boolean,
  key: MessageKey,
  params?: Record<string, string | number>,
  tryKey?: MessageKey,
) => ({
  ok,
  lines: [t(key, params), ...(!ok && tryKey ? [t(tryKey, params)] : [])],
});

export interface WindowsProbe {
  reach(url: string): Promise<boolean>;
  acl(file: string): Promise<boolean>;
  codePage(): Promise<number | undefined>;
  shell(): string | undefined;
}

const realProbe = (env: NodeJS.ProcessEnv): WindowsProbe => ({
  reach: async (url) => {
    try {
      await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(8000) });
      return true;
    } catch {
      return false;
    }
  },
  acl: (file) => restrictAcl(file),
  codePage: consoleCodePage,
  shell: () => {
    const comspec = env.ComSpec ?? env.COMSPEC ?? 'C:\\Windows\\System32\\cmd.exe';
    return existsSync(comspec) ? comspec : undefined;
  },
});

/** The Windows checks, in the order a person would fix them. */
export async function windowsChecks(
  ctx: AppContext,
  probe: WindowsProbe = realProbe(ctx.env),
): Promise<Check[]> {
  const checks: Check[] = [];
  checks.push(
    line(
      Boolean(ctx.config.apiKey),
      ctx.config.apiKey ? 'doctor.win.key' : 'doctor.win.noKey',
      {},
      'doctor.win.noKeyTry',
    ),
  );
  const host = new URL(ctx.config.baseUrl).host;
  const reached = await probe.reach(ctx.config.baseUrl);
  checks.push(
    line(
      reached,
      reached ? 'doctor.win.network' : 'doctor.win.noNetwork',
      { host },
      'doctor.win.noNetworkTry',
    ),
  );
  const file = ctx.paths.configFile;
  if (existsSync(file)) {
    checks.push(line(true, 'doctor.win.config', { file }));
    const acl = await probe.acl(file);
    checks.push(line(acl, acl ? 'doctor.win.acl' : 'doctor.win.noAcl', { file }, 'doctor.win.noAclTry'));
  } else {
    checks.push(line(true, 'doctor.win.noConfig', { file }));
  }
  const shell = probe.shell();
  checks.push(
    line(
      Boolean(shell),
      shell ? 'doctor.win.shell' : 'doctor.win.noShell',
      { shell: shell ?? 'cmd.exe' },
      'doctor.win.noShellTry',
    ),
  );
  const cp = await probe.codePage();
  checks.push(
    cp === undefined || cp === 0
      ? line(true, 'doctor.win.codePageUnknown')
      : line(true, 'doctor.win.codePage', { cp, encoding: encodingOf(cp) }),
  );
  checks.push({ ok: true, lines: [t('doctor.sandbox.windows'), t('doctor.sandbox.windowsTry')] });
  return checks;
}
