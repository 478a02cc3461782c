import { sessionMarkdown } from '../../agent/sessions/export.js';
import { CHAT_KINDS } from '../../agent/sessions/format.js';
import { deleteSession, listSessionsCounting } from '../../agent/sessions/listing.js';
import type { SessionSummary } from '../../agent/sessions/store.js';
import { ExitCode, type ExitCodeValue, ZhiError } from '../../support/errors.js';
import { t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';
import { terminalAsker } from '../ask.js';
import type { AppContext } from '../context.js';
import { dataAsJson } from '../render/formats/index.js';
import { displayTitle, sessionTable } from '../sessions/list.js';
import { load, resolveSessionArg } from '../sessions/resume.js';

const LIMIT = 20;

/**
 * `zhi sessions [text…] [--all] [--here] [--runs]` lists saved conversations (newest first),
 * filtered by text in any message, or with --runs the skill runs (and batch results collected); `zhi sessions export <id>` prints one as Markdown; `zhi sessions delete
 * <id>…` removes them after asking (or with --yes).
 */
export async function run(ctx: AppContext): Promise<ExitCodeValue> {
  const [action, ...rest] = ctx.args.positionals;
  if (action === 'export') return exportOne(ctx, rest);
  if (action === 'delete' || action === 'rm') return remove(ctx, rest);
  if (action === 'list' || action === 'ls') return list(ctx, rest);
  return list(ctx, ctx.args.positionals);
}

function flag(ctx: AppContext, name: string, words: string[]): boolean {
  const v = ctx.args.extra[name];
  if (v === undefined) return false;
  // `--all 合同`: the parser took the next word as the flag's value; it is a filter word.
  if (typeof v === 'string') words.push(v);
  return true;
}

/** Conversations (the REPL, zhi -c) are listed; skill runs, and batch results collected, with --runs. */

async function list(ctx: AppContext, words: string[]): Promise<ExitCodeValue> {
  const filter = [...words];
  const all = flag(ctx, 'all', filter);
  const here = flag(ctx, 'here', filter);
  const runs = flag(ctx, 'runs', filter);
  checkExtra(ctx, ['all', 'here', 'runs']);
  const query = filter.join(' ').trim();
  const where = { ...(query ? { query } : {}), ...(here ? { cwd: ctx.cwd } : {}) };
  // The runs left out are counted in the same pass, to be said under the list.
  const { found, others: otherRuns } = await listSessionsCounting(
    ctx.paths.sessionsDir,
    { ...where, kinds: runs ? ['run'] : [...CHAT_KINDS], ...(all ? {} : { shown: LIMIT }) },
    runs ? [] : ['run'],
  );
  if (dataAsJson(ctx.args.flags.outputFormat)) {
    process.stdout.write(`${JSON.stringify(found.map(jsonOf), null, 2)}\n`);
    return ExitCode.ok;
  }
  if (!found.length) {
    process.stderr.write(
      `${query ? t('sessions.noMatch', { query }) : t(runs ? 'sessions.noRuns' : 'sessions.none')}\n`,
    );
    if (otherRuns) process.stderr.write(`${ctx.err.dim(t('sessions.runsElsewhere', { n: otherRuns }))}\n`);
    return ExitCode.ok;
  }
  const shown = all ? found : found.slice(0, LIMIT);
  const width = process.stdout.isTTY ? process.stdout.columns || 100 : 120;
  const lines = sessionTable(shown, { style: ctx.out, width, cwd: ctx.cwd });
  process.stdout.write(`${lines.join('\n')}\n`);
  if (shown.length < found.length) {
    process.stderr.write(`${ctx.err.dim(t('sessions.more', { n: found.length - shown.length }))}\n`);
  }
  if (otherRuns) process.stderr.write(`${ctx.err.dim(t('sessions.runsElsewhere', { n: otherRuns }))}\n`);
  process.stderr.write(`${ctx.err.dim(t('sessions.hint'))}\n`);
  return ExitCode.ok;
}

function jsonOf(s: SessionSummary) {
  return {
    id: s.id,
    title: s.title,
    kind: s.kind,
    ...(s.skill ? { skill: s.skill } : {}),
    cwd: s.cwd,
    created: s.created,
    updated: s.updated,
    model: s.model,
    turns: s.turns,
    tokens: s.tokens,
    cost: { amount: Number(s.cost.toFixed(6)), currency: s.currency, covered_by_plan: s.covered },
    file: s.file,
  };
}

function needId(action: string): ZhiError {
  return new ZhiError({
    kind: 'usage',
    what: { key: 'sessions.err.needIdFor', params: { action } },
    tries: [{ key: 'sessions.try.list' }],
  });
}

function checkExtra(ctx: AppContext, allowed: string[]): void {
  const unknown = Object.keys(ctx.args.extra).find((k) => !allowed.includes(k));
  if (unknown) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'cli.err.unknownFlag', params: { flag: `--${unknown}` } },
      tries: [{ key: 'cli.try.help' }],
    });
  }
}

async function exportOne(ctx: AppContext, ids: string[]): Promise<ExitCodeValue> {
  checkExtra(ctx, []);
  if (ids.length !== 1) throw needId('export');
  const found = await resolveSessionArg(ctx.paths.sessionsDir, ids[0]!);
  const loaded = await load(found.file);
  // Saved answers are the model's text: shown, never run, on a terminal as in a file.
  process.stdout.write(visible(sessionMarkdown(loaded), { keepNewlines: true, keepTabs: true }));
  return ExitCode.ok;
}

async function remove(ctx: AppContext, ids: string[]): Promise<ExitCodeValue> {
  checkExtra(ctx, []);
  if (!ids.length) throw needId('delete');
  const targets: SessionSummary[] = [];
  for (const id of ids) targets.push(await resolveSessionArg(ctx.paths.sessionsDir, id));
  if (!ctx.args.flags.yes) {
    if (!ctx.stdinIsTTY) {
      throw new ZhiError({
        kind: 'usage',
        what: { key: 'sessions.err.deleteNeedsYes' },
        why: { key: 'sessions.err.deleteNeedsYesWhy' },
        tries: [{ key: 'sessions.try.yes', params: { ids: ids.join(' ') } }],
      });
    }
    for (const s of targets) process.stderr.write(`  ${s.id}  ${displayTitle(s)}\n`);
    const yes = await terminalAsker().yesNo(`${t('sessions.deleteQuestion', { n: targets.length })} `);
    if (!yes) {
      process.stderr.write(`${t('sessions.kept')}\n`);
      return ExitCode.ok;
    }
  }
  for (const s of targets) {
    await deleteSession(ctx.paths.sessionsDir, s.id);
    process.stderr.write(`${t('sessions.deleted', { id: s.id })}\n`);
  }
  return ExitCode.ok;
}
