/**
 * `zhi schedule add <when> <skill> <inputs…> | list | show <name> | run <name> | logs <name> |
 * pause <name> | resume <name> | remove <name> | confirm <name>`: recurring runs of a skill,
 * started by the operating system's own scheduler (agent/schedule/os).
 */
import { type Job, readJob } from '../../agent/schedule/job.js';
import { type ExitCodeValue, ZhiError } from '../../support/errors.js';
import type { AppContext } from '../context.js';

const NEEDS_NAME = ['show', 'run', 'logs', 'pause', 'resume', 'remove', 'confirm'];

export async function run(ctx: AppContext): Promise<ExitCodeValue> {
  const [action, ...words] = ctx.args.positionals;
  if (action === 'add') return (await import('../schedule/add.js')).add(ctx, words);
  const manage = await import('../schedule/manage.js');
  if (action === 'list' || action === undefined) return manage.list(ctx);
  if (!NEEDS_NAME.includes(action)) throw new ZhiError({ kind: 'usage', what: { key: 'schedule.usage' } });
  if (!words[0] || words.length > 1) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'schedule.err.needName', params: { action } },
      tries: [{ key: 'schedule.try.list' }],
    });
  }
  const job = await jobNamed(ctx, words[0]);
  switch (action) {
    case 'run':
      return (await import('../schedule/run-job.js')).runJob(ctx, job);
    case 'show':
      return manage.show(ctx, job);
    case 'logs':
      return manage.logs(ctx, job);
    case 'pause':
    case 'resume':
      return manage.pause(ctx, job, action === 'pause');
    case 'remove':
      return manage.remove(ctx, job);
    default:
      return manage.confirm(ctx, job);
  }
}

async function jobNamed(ctx: AppContext, name: string): Promise<Job> {
  const job = await readJob(ctx.paths.dataDir, name);
  if (job) return job;
  throw new ZhiError({
    kind: 'usage',
    what: { key: 'schedule.err.noJob', params: { name } },
    tries: [{ key: 'schedule.try.list' }],
  });
}
