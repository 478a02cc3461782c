/**
 * `zhi doctor`: what this computer offers zhi, in plain words, with how to fix what is missing.
 * Checks: the shell sandbox, and LibreOffice for old office files. Exit code 0 when all is
 * well, 1 when a check needs attention.
 */
import { ExitCode, type ExitCodeValue } from '../../support/errors.js';
import { type MessageKey, t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';
import { findSoffice } from '../../tools/files/readers/soffice.js';
import { type SandboxState, sandboxState } from '../../tools/shell/sandbox.js';
import type { AppContext } from '../context.js';

interface Check {
  ok: boolean;
  /** Missing but not needed for zhi to work: marked, without failing the run. */
  optional?: boolean;
  lines: string[];
}

/** Which reading paths office files have here: LibreOffice found or not. */
export function officeCheck(soffice: string | undefined): Check {
  if (soffice) return { ok: true, lines: [t('doctor.office.found', { path: visible(soffice) })] };
  const tryKey =
    process.platform === 'win32'
      ? 'doctor.office.tryWindows'
      : process.platform === 'darwin'
        ? 'doctor.office.tryMac'
        : 'doctor.office.tryLinux';
  return { ok: false, optional: true, lines: [t('doctor.office.missing'), t(tryKey)] };
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
  const checks = [sandboxCheck(sandboxState()), officeCheck(findSoffice())];
  for (const c of checks) {
    const [head, ...rest] = c.lines;
    out(`${c.ok ? style.green('✓') : c.optional ? style.dim('-') : style.yellow('!')} ${head}`);
    for (const line of rest) out(`  ${line}`);
  }
  const ok = checks.every((c) => c.ok || c.optional);
  out(ok ? t('doctor.ok') : t('doctor.problems'));
  return ok ? ExitCode.ok : ExitCode.failure;
}
