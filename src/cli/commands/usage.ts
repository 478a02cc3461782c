import {
  aggregate,
  type GroupBy,
  type LedgerEntry,
  type LedgerRow,
  localDay,
  parseSince,
  readLedger,
} from '../../agent/ledger.js';
import { DEFAULT_CHAT_MODEL, formatCost } from '../../llm/models.js';
import type { Currency } from '../../llm/platforms.js';
import { maxOf } from '../../support/arrays.js';
import { ExitCode, type ExitCodeValue, ZhiError } from '../../support/errors.js';
import { t } from '../../support/i18n/index.js';
import { nearest } from '../../support/suggest.js';
import { padToWidth, textWidth } from '../../support/width.js';
import type { AppContext } from '../context.js';
import { dataAsJson } from '../render/formats/index.js';

const GROUPS: GroupBy[] = ['model', 'skill', 'day', 'kind'];
const DEFAULT_SINCE = '30d';

/**
 * `zhi usage [--since 7d|2026-03-01|all] [--by model|skill|day|kind]`: what every model call
 * cost, from the usage ledger. Rows with calls on cheaper models show what the same calls would
 * have cost on GLM-5, which is the point of running skills on a cheap model.
 */
export async function run(ctx: AppContext): Promise<ExitCodeValue> {
  const extra = ctx.args.extra;
  const unknown = Object.keys(extra).find((k) => k !== 'since' && k !== 'by');
  if (unknown || ctx.args.positionals.length) {
    throw new ZhiError({
      kind: 'usage',
      what: unknown
        ? { key: 'cli.err.unknownFlag', params: { flag: `--${unknown}` } }
        : { key: 'cli.err.unknownCommand', params: { name: `usage ${ctx.args.positionals.join(' ')}` } },
      tries: [{ key: 'ledger.try.syntax' }],
    });
  }
  const byRaw = typeof extra.by === 'string' ? extra.by : extra.by === true ? '' : 'model';
  if (!GROUPS.includes(byRaw as GroupBy)) {
    const suggestion = nearest(byRaw, GROUPS);
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'cli.err.badValue', params: { flag: '--by', value: byRaw } },
      why: { key: 'cli.err.badValueWhy', params: { allowed: GROUPS.join(', ') } },
      tries: suggestion
        ? [{ key: 'cli.try.didYouMean', params: { suggestion: `--by ${suggestion}` } }]
        : [{ key: 'ledger.try.syntax' }],
    });
  }
  const by = byRaw as GroupBy;
  const sinceRaw = typeof extra.since === 'string' ? extra.since : extra.since === true ? '' : DEFAULT_SINCE;
  let since: Date | undefined;
  if (sinceRaw !== 'all') {
    since = parseSince(sinceRaw);
    if (!since) {
      throw new ZhiError({
        kind: 'usage',
        what: { key: 'cli.err.badValue', params: { flag: '--since', value: sinceRaw } },
        why: { key: 'ledger.sinceWhy' },
        tries: [{ key: 'ledger.try.syntax' }],
      });
    }
  }
  const { entries, skipped } = await readLedger(ctx.paths.usageLedger, since);
  const { rows, total } = aggregate(entries, by);
  if (dataAsJson(ctx.args.flags.outputFormat)) {
    process.stdout.write(`${JSON.stringify(usageJson(rows, total, by, since, entries), null, 2)}\n`);
    return ExitCode.ok;
  }
  const period = since
    ? t('ledger.since', { date: localDay(since.toISOString()), raw: sinceRaw })
    : t('ledger.allTime');
  if (!entries.length) {
    process.stderr.write(`${t('ledger.empty', { period })}\n`);
    return ExitCode.ok;
  }
  process.stdout.write(`${ctx.out.bold(t('ledger.heading', { period, by: t(`ledger.by.${by}`) }))}\n\n`);
  process.stdout.write(`${table(rows, total, by, ctx).join('\n')}\n`);
  const promise = skillLine(entries);
  if (promise) process.stdout.write(`\n${promise}\n`);
  if (skipped) process.stderr.write(`${ctx.err.dim(t('ledger.skipped', { n: skipped }))}\n`);
  return ExitCode.ok;
}

function money(cost: LedgerRow['cost']): string {
  const parts = (Object.entries(cost) as [Currency, number][]).map(([currency, amount]) =>
    formatCost({ amount, currency }),
  );
  return parts.join(' + ') || formatCost({ amount: 0, currency: 'CNY' });
}

function costCell(row: LedgerRow): string {
  if (row.covered === row.calls && row.calls > 0) return t('sessions.list.plan');
  return money(row.cost);
}

const num = (n: number) => n.toLocaleString('en-US');

function table(rows: LedgerRow[], total: LedgerRow, by: GroupBy, ctx: AppContext): string[] {
  const flagship = rows.some((r) => r.compared > 0);
  const head = [
    t(`ledger.col.${by}`),
    t('ledger.col.calls'),
    t('ledger.col.prompt'),
    t('ledger.col.cached'),
    t('ledger.col.output'),
    t('ledger.col.total'),
    t('ledger.col.cost'),
    ...(flagship ? [t('ledger.col.flagship', { model: DEFAULT_CHAT_MODEL.toUpperCase() })] : []),
  ];
  const cells = (r: LedgerRow, key: string) => [
    key,
    num(r.calls),
    num(r.prompt),
    num(r.cached),
    num(r.completion),
    num(r.total),
    costCell(r),
    ...(flagship ? [r.compared > 0 ? money(r.onFlagship) : '–'] : []),
  ];
  const body = rows.map((r) => cells(r, r.key));
  const foot = cells(total, t('ledger.total'));
  const all = [head, ...body, foot];
  const widths = head.map((_, c) => maxOf(all.map((r) => textWidth(r[c]!))));
  const line = (r: string[]) =>
    r.map((c, k) => padToWidth(c, widths[k]!, k > 0 ? 'right' : 'left')).join('  ');
  const rule = ctx.out.dim('─'.repeat(widths.reduce((a, b) => a + b + 2, -2)));
  const note = flagship
    ? ['', ctx.out.dim(t('ledger.flagshipNote', { model: DEFAULT_CHAT_MODEL.toUpperCase() }))]
    : [];
  return [ctx.out.bold(line(head)), ...body.map(line), rule, ctx.out.bold(line(foot)), ...note];
}

/** The two-model promise, in numbers: skills' cost next to the same tokens on GLM-5. */
function skillLine(entries: LedgerEntry[]): string | undefined {
  const skills = entries.filter((e) => e.kind === 'skill');
  const { total } = aggregate(skills, 'kind');
  // Skills that ran on GLM-5 or on a plan have nothing to compare.
  if (total.compared === 0) return undefined;
  return t('ledger.promise', {
    tokens: num(total.total),
    cost: costCell(total),
    model: DEFAULT_CHAT_MODEL.toUpperCase(),
    flagship: money(total.onFlagship),
  });
}

function usageJson(
  rows: LedgerRow[],
  total: LedgerRow,
  by: GroupBy,
  since: Date | undefined,
  entries: LedgerEntry[],
) {
  const row = (r: LedgerRow) => ({
    key: r.key,
    calls: r.calls,
    prompt_tokens: r.prompt,
    cached_tokens: r.cached,
    completion_tokens: r.completion,
    reasoning_tokens: r.reasoning,
    total_tokens: r.total,
    cost: r.cost,
    covered_calls: r.covered,
    ...(r.compared > 0 ? { on_flagship: r.onFlagship } : {}),
  });
  return {
    since: since?.toISOString() ?? null,
    by,
    calls: entries.length,
    rows: rows.map(row),
    total: row(total),
  };
}
