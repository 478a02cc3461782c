import { chatModelIds } from '../../llm/models.js';
import { pushAll } from '../../support/arrays.js';
import { ExitCode, type ExitCodeValue, ZhiError } from '../../support/errors.js';
import { t } from '../../support/i18n/index.js';
import { log } from '../../support/log.js';
import { makeClient } from '../client.js';
import type { AppContext } from '../context.js';
import { modelRows } from '../render/model-rows.js';
import { columns } from '../render/width.js';

/**
 * `zhi models`: the registry with this platform's prices (free models marked, unconfirmed prices
 * with "≈"), then what the account's `GET /models` offers beyond it, when the platform answers
 * (the endpoint is undocumented and was a 404 on BigModel in 2025: its absence is not an error).
 */
export async function run(ctx: AppContext): Promise<ExitCodeValue> {
  if (ctx.args.positionals.length || Object.keys(ctx.args.extra).length) {
    throw new ZhiError({
      kind: 'usage',
      what: {
        key: 'cli.err.unknownCommand',
        params: { name: ['models', ...ctx.args.positionals].join(' ') },
      },
      tries: [{ key: 'models.try.syntax' }],
    });
  }
  const out: string[] = [t('models.title', { platform: ctx.platform.id, currency: ctx.platform.currency })];
  pushAll(
    out,
    columns([[t('models.col.id'), t('models.col.price'), t('models.col.about')], ...modelRows(ctx.platform)]),
  );
  out.push('', t('models.note'));
  const remote = await accountModels(ctx);
  if (remote === undefined) out.push(t('models.remote.none'));
  else {
    const known = new Set(chatModelIds());
    const extra = remote.filter((id) => !known.has(id.toLowerCase()));
    out.push(
      extra.length
        ? t('models.remote.extra', { n: remote.length, models: extra.join(', ') })
        : t('models.remote.all', { n: remote.length }),
    );
  }
  process.stdout.write(`${out.join('\n')}\n`);
  return ExitCode.ok;
}

/** The ids `GET {base}/models` lists, or undefined when there is no key or no answer. */
async function accountModels(ctx: AppContext): Promise<string[] | undefined> {
  if (!ctx.config.apiKey) return undefined;
  const answer = await makeClient(ctx).http.json<{ data?: Array<{ id?: unknown }> }>({
    path: '/models',
    timeoutMs: 8000,
    // The list is a nicety beside the built-in table: one try, no waiting on a busy platform.
    retry: false,
  });
  if (!answer.ok) {
    log().debug('GET /models failed', { error: answer.error });
    return undefined;
  }
  return (answer.value.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string');
}
