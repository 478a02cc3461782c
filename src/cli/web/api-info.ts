import { join } from 'node:path';
/**
 * What the page shows beside the work: usage and cost per day, model and skill (from the ledger,
 * as `zhi usage` reads it), the MCP servers with their state, and `zhi doctor`'s checks.
 */
import { localDay, readLedger } from '../../agent/ledger.js';
import { CHECKS } from '../commands/doctor-checks.js';
import type { Router } from './router.js';
import type { WebState } from './state.js';

interface Day {
  date: string;
  cost: number;
  tokens: number;
  calls: number;
  byModel: Record<string, number>;
  bySkill: Record<string, number>;
}

async function usage(state: WebState, days: number) {
  const since = new Date(Date.now() - days * 86_400_000);
  const { entries } = await readLedger(state.ctx.paths.usageLedger, since);
  const byDay = new Map<string, Day>();
  const currencies = new Map<string, number>();
  for (const e of entries) {
    const date = localDay(e.time);
    let day = byDay.get(date);
    if (!day) {
      day = { date, cost: 0, tokens: 0, calls: 0, byModel: {}, bySkill: {} };
      byDay.set(date, day);
    }
    day.cost += e.cost;
    day.tokens += e.total;
    day.calls += 1;
    day.byModel[e.model] = (day.byModel[e.model] ?? 0) + e.cost;
    const skill = e.skill ?? (e.kind === 'chat' ? 'chat' : e.kind);
    day.bySkill[skill] = (day.bySkill[skill] ?? 0) + e.cost;
    currencies.set(e.currency, (currencies.get(e.currency) ?? 0) + 1);
  }
  const currency =
    [...currencies.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? state.ctx.platform.currency;
  return { days: [...byDay.values()].sort((a, b) => (a.date < b.date ? -1 : 1)), currency };
}

async function mcp(state: WebState) {
  const servers = state.ctx.config.mcpServers;
  if (!Object.keys(servers).length) return [];
  const { McpManager } = await import('../../tools/mcp/manager.js');
  const manager = new McpManager(servers, state.ctx.cwd, undefined, {
    oauthFile: join(state.ctx.paths.configDir, 'mcp-oauth.json'),
  });
  try {
    await manager.start();
    return manager.status().map((s) => ({
      name: s.name,
      state: s.state,
      transport: s.transport,
      trust: s.trust,
      tools: s.tools.length,
      ...(s.error ? { error: s.error } : {}),
    }));
  } finally {
    await manager.close();
  }
}

async function doctor(state: WebState) {
  const out = [];
  for (const check of CHECKS) {
    const c = await check(state.ctx);
    if (!c) continue;
    const [text = '', ...advice] = c.lines;
    const level = c.ok ? (c.note ? 'note' : 'ok') : c.optional ? 'optional' : 'problem';
    out.push({
      name: checkName(text),
      ok: c.ok,
      level,
      text,
      ...(advice.length ? { advice: advice.join('\n') } : {}),
    });
  }
  return out;
}

/** A check's short name: its line up to the colon (`Config`, `API key`, `配置`), else its first word. */
function checkName(text: string): string {
  const colon = text.search(/[:：]/);
  if (colon > 0 && colon <= 24) return text.slice(0, colon);
  return text.split(/\s/)[0] ?? '';
}

export function infoRoutes(router: Router, state: WebState): void {
  router.add('GET', '/api/usage', async ({ url }) => {
    const days = Math.min(Math.max(Number(url.searchParams.get('days')) || 30, 1), 366);
    return [200, await usage(state, days)];
  });
  router.add('GET', '/api/mcp', async () => [200, await mcp(state)]);
  router.add('GET', '/api/doctor', async () => [200, await doctor(state)]);
}
