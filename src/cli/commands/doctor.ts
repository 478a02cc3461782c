/**
 * `zhi doctor`: what this computer offers zhi, in plain words, with how to fix what is missing —
 * the config, the key (tried live) and the way to the platform, the MCP servers, LibreOffice for
 * old office files, the shell sandbox (doctor-checks.ts, one function each). Exit code 0 when all
 * is well, 1 when a check found something wrong.
 */
import { ExitCode, type ExitCodeValue } from '../../support/errors.js';
import { t } from '../../support/i18n/index.js';
import type { AppContext } from '../context.js';
import { CHECKS } from './doctor-checks.js';

export { audioCheck, officeCheck, sandboxCheck } from './doctor-sandbox.js';

export async function run(ctx: AppContext): Promise<ExitCodeValue> {
  const style = ctx.err;
  const out = (s: string) => process.stdout.write(`${s}\n`);
  out(style.bold(t('doctor.title')));
  let ok = true;
  for (const check of CHECKS) {
    const c = await check(ctx);
    if (!c) continue;
    ok &&= c.ok || Boolean(c.optional);
    const [head, ...rest] = c.lines;
    const mark = c.ok
      ? c.note
        ? style.yellow('·')
        : style.green('✓')
      : c.optional
        ? style.dim('-')
        : style.red('✗');
    out(`${mark} ${head}`);
    for (const line of rest) out(`  ${line}`);
  }
  out(ok ? t('doctor.ok') : t('doctor.problems'));
  return ok ? ExitCode.ok : ExitCode.failure;
}
