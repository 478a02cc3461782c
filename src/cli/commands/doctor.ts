/**
 * `zhi doctor`: what this computer offers zhi, in plain words, with how to fix what is missing.
 * On Linux and macOS the shell sandbox; on Windows what applies there (doctor-windows.ts). Exit
 * code 0 when all is well, 1 when a check needs attention.
 */
import { ExitCode, type ExitCodeValue } from '../../support/errors.js';
import { type MessageKey, t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';
import { type SandboxState, sandboxState } from '../../tools/shell/sandbox.js';
import type { AppContext } from '../context.js';

interface Check {
  ok: boolean;
  lines: string[];
}

/** The sandbox check as text; exported for tests. */
export function sandboxCheck(state: SandboxState): Check {
  if (state.kind !== 'none') return { ok: true, lines: [t(`doctor.sandbox.${state.kind}`)] };
  const base = `doctor.sandbox.${state.reason}` as MessageKey;
  const detail = visible(state.detail?.split('\n')[0]?.slice(0, 200) ?? '');
  const lines = [t(base, { detail })];
  if (state.reason !== 'unsupported') lines.push(t(`${base}Try` as MessageKey));
  return { ok: false, lines };
}

export async function run(ctx: AppContext): Promise<ExitCodeValue> {
  const style = ctx.err;
  const out = (s: string) => process.stdout.write(`${s}\n`);
  out(style.bold(t('doctor.title')));
  const checks =
    process.platform === 'win32'
      ? await (await import('./doctor-windows.js')).windowsChecks(ctx)
      : [sandboxCheck(sandboxState())];
  for (const c of checks) {
    const [head, ...rest] = c.lines;
    out(`${c.ok ? style.green('✓') : style.yellow('!')} ${head}`);
    for (const line of rest) out(`  ${line}`);
  }
  const ok = checks.every((c) => c.ok);
  out(ok ? t('doctor.ok') : t('doctor.problems'));
  return ok ? ExitCode.ok : ExitCode.failure;
}
