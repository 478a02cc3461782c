/**
 * `zhi watch <folder> <skill> [inputs…] [folder-run options]` (issue 41 point 4): a folder run,
 * then the same run again each time files arrive or change and have stopped growing, until
 * Ctrl+C. Every round is an ordinary folder run — its run record, resumability, "done means
 * written", the folder lock — so a watch killed mid-round loses nothing: the next watch (or
 * `zhi run` of the same folder) does what is left. Files that failed are tried again when the
 * folder next changes.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { AgentResult } from '../../agent/events.js';
import { manifestPath } from '../../agent/folder/manifest.js';
import { lookAt, nextSettled, somethingNew, type WatchOptions } from '../../agent/folder/watch-folder.js';
import { supportedExtensions } from '../../skills/documents.js';
import { ExitCode, type ExitCodeValue, exitCodeOf, ZhiError } from '../../support/errors.js';
import { type MessageKey, t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';
import { type AppContext, requireKey } from '../context.js';
import { formatError } from '../render/error.js';
import { outputDirOf } from '../settings.js';
import { runFromCommandLine } from '../skills/execute.js';
import { type PreparedRun, prepareRun } from './run.js';

/**
 * How often an idle folder is looked at, and how long a change must hold still (tests shorten
 * both with ZHI_WATCH_POLL_MS).
 */
const POLL_MS = Number(process.env.ZHI_WATCH_POLL_MS) || 2000;
const SETTLE_MS = Math.round(POLL_MS * 0.75);

export async function run(ctx: AppContext): Promise<ExitCodeValue> {
  const [folder, name, ...inputs] = ctx.args.positionals;
  if (!folder || !name) throw new ZhiError({ kind: 'usage', what: { key: 'watch.usage' } });
  const abs = resolve(ctx.cwd, folder);
  if (!(await stat(abs).catch(() => undefined))?.isDirectory()) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'watch.err.notFolder', params: { path: visible(folder) } },
      tries: [{ key: 'watch.try.folder' }],
    });
  }
  const prepared = await prepareRun(ctx, name, [folder, ...inputs], ctx.args.extra);
  if (prepared.folder.batch || prepared.folder.dryRun) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'watch.err.flag', params: { flag: prepared.folder.batch ? '--batch' : '--dry-run' } },
      why: { key: 'watch.why.flag' },
      tries: [{ key: 'watch.try.run', params: { folder: visible(folder), skill: name } }],
    });
  }
  requireKey(ctx);
  // Another run of the same folder (a `zhi run`, a watch killed a moment ago whose lock is not
  // yet seen as stale): a round waits for it rather than failing and waiting for a change.
  prepared.folder.wait = true;
  const arg = prepared.skill.args.find((a) => a.type === 'directory' || a.type === 'file');
  const options: WatchOptions = {
    recursive: prepared.folder.recursive,
    skip: [outputDirOf(ctx, prepared.skill.output.directory)],
    extensions: supportedExtensions(arg?.extensions ? arg : undefined, true),
    pollMs: POLL_MS,
    settleMs: SETTLE_MS,
  };
  const say = (key: MessageKey, params: Record<string, string | number> = {}) =>
    process.stderr.write(`${ctx.err.dim(t(key, { folder: visible(folder), ...params }))}\n`);
  say('watch.start', { skill: name });
  const record = manifestPath(options.skip[0] as string, prepared.skill.name, abs);
  let rounds = 0;
  let seen = await lookAt(abs, options);
  for (let first = true; ; first = false) {
    // The first round catches up with what is there; later ones start only for something new
    // (a file that arrived while a round listed the folder is already done: no empty round).
    if (seen.size > 0 && (first || (await somethingNew(seen, record)))) {
      const result = await round(ctx, prepared);
      rounds += 1;
      if (result?.stopReason === 'aborted') return exitCodeOf(result);
      say('watch.waiting');
    } else if (first) say('watch.waiting');
    const before = seen;
    const next = await ctx.interrupt.run((signal) => nextSettled(abs, options, before, signal));
    if (!next) {
      say('watch.stopped', { rounds });
      return ExitCode.ok;
    }
    seen = next;
  }
}

/**
 * One folder run. A round that cannot start (nothing this skill reads is there yet) is said and
 * the watch goes on; the next change tries again.
 */
async function round(ctx: AppContext, prepared: PreparedRun): Promise<AgentResult | undefined> {
  try {
    return await runFromCommandLine(ctx, prepared);
  } catch (err) {
    if (!(err instanceof ZhiError) || err.kind !== 'usage') throw err;
    process.stderr.write(formatError(err, ctx.err));
    return undefined;
  }
}
