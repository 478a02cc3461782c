// Usage and cost from the ledger: a bar per day, stacked by model, drawn as SVG; totals per model
// and per skill underneath. Colours come from the stylesheet (series-0…5), no inline style.
import { useEffect, useState } from 'preact/hooks';
import { api } from './api.js';
import { money, num, t } from './i18n.js';
import type { Usage } from './types.js';
import { Empty, ErrorBox, Loading } from './ui.js';

const RANGES = [7, 30, 90] as const;

export function UsageView() {
  const [days, setDays] = useState<number>(30);
  const [usage, setUsage] = useState<Usage>();
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    api.get<Usage>(`/api/usage?days=${days}`).then((u) => setUsage(everyDay(u, days)), setError);
  }, [days]);
  const total = usage?.days.reduce((s, d) => s + d.cost, 0) ?? 0;
  const tokens = usage?.days.reduce((s, d) => s + d.tokens, 0) ?? 0;
  return (
    <section class="view">
      <header class="view-head">
        <h1>{t('page.nav.usage')}</h1>
        <fieldset class="tabs">
          <legend class="sr-only">{t('page.usage.range')}</legend>
          {RANGES.map((r) => (
            <button
              key={r}
              type="button"
              class={r === days ? 'active' : ''}
              aria-pressed={r === days}
              onClick={() => setDays(r)}
            >
              {t('page.usage.days', { n: r })}
            </button>
          ))}
        </fieldset>
      </header>
      <ErrorBox error={error} />
      {!usage && !error && <Loading />}
      {usage && (
        <>
          <p class="usage-total">
            {t('page.usage.total', { cost: money(total, usage.currency), tokens: num(tokens) })}
          </p>
          {total === 0 && tokens === 0 ? (
            <Empty>{t('page.usage.none')}</Empty>
          ) : (
            <>
              <Chart usage={usage} />
              <div class="split">
                <Totals title={t('page.usage.byModel')} usage={usage} pick={(d) => d.byModel} />
                <Totals
                  title={t('page.usage.bySkill')}
                  usage={usage}
                  pick={(d) => d.bySkill}
                  label={skillLabel}
                />
              </div>
            </>
          )}
        </>
      )}
    </section>
  );
}

/** The period's every day, oldest first, a day without use as zero (the ledger lists used days only). */
function everyDay(usage: Usage, n: number): Usage {
  const byDate = new Map(usage.days.map((d) => [d.date, d]));
  const days: Usage['days'] = [];
  const today = new Date();
  for (let i = n - 1; i >= 0; i--) {
    const d = new Date(today.getFullYear(), today.getMonth(), today.getDate() - i);
    const date = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    days.push(byDate.get(date) ?? { date, cost: 0, tokens: 0, byModel: {}, bySkill: {} });
  }
  return { ...usage, days };
}

type Pick = (d: Usage['days'][number]) => Record<string, number>;

function sumBy(usage: Usage, pick: Pick): [string, number][] {
  const totals = new Map<string, number>();
  for (const d of usage.days)
    for (const [k, v] of Object.entries(pick(d))) totals.set(k, (totals.get(k) ?? 0) + v);
  return [...totals].sort((a, b) => b[1] - a[1]);
}

const W = 720;
const H = 220;
const PAD = { left: 56, right: 8, top: 12, bottom: 28 };

function Chart({ usage }: { usage: Usage }) {
  const models = sumBy(usage, (d) => d.byModel).map(([m]) => m);
  const max = Math.max(...usage.days.map((d) => d.cost), 0) || 1;
  const n = usage.days.length || 1;
  const slot = (W - PAD.left - PAD.right) / n;
  const bar = Math.max(2, slot * 0.7);
  const y = (v: number) => PAD.top + (H - PAD.top - PAD.bottom) * (1 - v / max);
  const every = Math.ceil(n / 8);
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={t('page.usage.chart')}>
        {[0, 0.5, 1].map((f) => (
          <g key={f}>
            <line class="grid" x1={PAD.left} x2={W - PAD.right} y1={y(max * f)} y2={y(max * f)} />
            <text class="axis" x={PAD.left - 6} y={y(max * f) + 4} text-anchor="end">
              {money(max * f, usage.currency)}
            </text>
          </g>
        ))}
        {usage.days.map((d, i) => {
          const x = PAD.left + i * slot + (slot - bar) / 2;
          let base = 0;
          const known = models.reduce((s, m) => s + (d.byModel[m] ?? 0), 0);
          const parts = models.map((m) => [m, d.byModel[m] ?? 0] as const).filter(([, v]) => v > 0);
          if (d.cost > known) parts.push(['', d.cost - known]);
          return (
            <g key={d.date}>
              <title>{`${d.date}: ${money(d.cost, usage.currency)}`}</title>
              {parts.map(([m, v]) => {
                const top = y(base + v);
                const rect = (
                  <rect
                    key={m || 'other'}
                    class={`series-${m ? models.indexOf(m) % 6 : 5}`}
                    x={x}
                    y={top}
                    width={bar}
                    height={Math.max(0, y(base) - top)}
                  />
                );
                base += v;
                return rect;
              })}
              {i % every === 0 && (
                <text class="axis" x={x + bar / 2} y={H - 8} text-anchor="middle">
                  {d.date.slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption class="legend">
        {models.map((m, i) => (
          <span key={m}>
            <i class={`swatch series-${i % 6}`} />
            {m}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

/** The ledger's `chat` is the conversations, not a skill of that name. */
const skillLabel = (k: string) => (k === 'chat' ? t('page.usage.chat') : k);

interface TotalsProps {
  title: string;
  usage: Usage;
  pick: Pick;
  label?: (key: string) => string;
}

function Totals({ title, usage, pick, label = (k) => k }: TotalsProps) {
  const rows = sumBy(usage, pick);
  return (
    <div class="card">
      <h2>{title}</h2>
      {rows.length === 0 ? (
        <Empty>—</Empty>
      ) : (
        <table class="table">
          <tbody>
            {rows.map(([k, v]) => (
              <tr key={k}>
                <td>{label(k)}</td>
                <td class="num">{money(v, usage.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
