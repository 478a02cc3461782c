/** At a zhi start in a terminal: scheduled runs that went wrong or were missed, said once. */
import { existsSync } from 'node:fs';
import { schedulesDir } from '../../agent/schedule/job.js';
import { localTimeZone } from '../../agent/schedule/next.js';
import { takeNotices } from '../../agent/schedule/notice.js';
import { runTime } from '../../agent/schedule/words.js';
import { t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';
import type { AppContext } from '../context.js';

export async function tellScheduled(ctx: AppContext): Promise<void> {
  if (!existsSync(schedulesDir(ctx.paths.dataDir))) return;
  const notices = await takeNotices(ctx.paths.dataDir).catch(() => []);
  for (const n of notices) {
    const line =
      n.kind === 'missed'
        ? t('schedule.notice.missed', { name: n.job, at: runTime(n.at, localTimeZone()) })
        : t('schedule.notice.run', {
            name: n.job,
            at: runTime(new Date(n.record.startedAt), localTimeZone()),
            status: t(`schedule.status.${n.record.status}`),
            reason: visible(n.record.reason ?? ''),
          });
    process.stderr.write(`${ctx.err.yellow(line)}\n`);
  }
}
