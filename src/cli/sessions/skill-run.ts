import { RunBudget } from '../../agent/budget.js';
import type { AgentEvent, AgentResult } from '../../agent/events.js';
import type { AgentDeps } from '../../agent/loop.js';
import { openSession } from '../../agent/sessions/recorder.js';
import type { SkillEvent } from '../../agent/skills/run.js';
import { UsageTracker } from '../../llm/usage.js';
import { t } from '../../support/i18n/index.js';
import { log } from '../../support/log.js';
import type { AppContext } from '../context.js';
import { formatWarning } from '../render/error.js';

/** What a skill run (`zhi run`, `/run`) needs to be saved, ledgered and budgeted. */
export interface SkillRunRecording {
  /** Events of the run itself. */
  observe(ev: SkillEvent): void;
  /** Events of nested runs (composite steps, per-file runs): their usage is recorded under their skill. */
  nested(ev: SkillEvent, chain: readonly string[]): void;
  /** For every agent loop of the run (nested ones too): large results spill, the budget is checked. */
  hooks: Pick<AgentDeps, 'beforeCall' | 'spill'>;
  /** The run ended (or failed to start): record its end and close the file. */
  finish(result?: AgentResult): void;
}

const AGENT_EVENTS = new Set<AgentEvent['type']>([
  'turn_start',
  'text_delta',
  'thinking_delta',
  'retry',
  'message',
  'tool_start',
  'permission',
  'tool_end',
  'progress',
  'usage',
  'warning',
  'error',
  'done',
]);

function isAgentEvent(ev: SkillEvent): ev is AgentEvent {
  return AGENT_EVENTS.has(ev.type as AgentEvent['type']);
}

/** How the run's inputs read in a listing: `report.pdf · english`. */
export function describeInputs(values: Record<string, unknown>): string {
  return Object.values(values)
    .filter((v) => v !== undefined && v !== null && v !== '' && v !== false)
    .map((v) => {
      const text = String(v).replace(/\s+/g, ' ').trim();
      return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
    })
    .join(' · ');
}

/**
 * Record a skill run as a session of kind `run` (found by `zhi sessions`, its usage in the ledger
 * as kind `skill`). The run's inputs stand as its first message; nothing is written until the run
 * starts talking to the model. `usage` is the run's tracker: every call added to it (OCR included)
 * is recorded.
 */
export function recordSkillRun(
  ctx: AppContext,
  o: { skill: string; values: Record<string, unknown>; model: string; usage: UsageTracker },
): SkillRunRecording {
  let warned = false;
  const recorder = openSession({
    kind: 'run',
    skill: o.skill,
    sessionsDir: ctx.paths.sessionsDir,
    ledgerFile: ctx.paths.usageLedger,
    cwd: ctx.cwd,
    model: o.model,
    platform: ctx.platform,
    title: describeInputs(o.values) || o.skill,
    onError: (err) => {
      log().warn('skill run not saved', err);
      if (warned) return;
      warned = true;
      process.stderr.write(
        formatWarning(
          t('sessions.saveFailed', { reason: err instanceof Error ? err.message : String(err) }),
          ctx.err,
        ),
      );
    },
  });
  const stop = recorder.listen(o.usage);
  // Spent by the whole run, nested skills included (their trackers are merged only at their end).
  const spent = new UsageTracker(ctx.platform);
  const unspend = o.usage.onAdd((model, usage) => spent.add(model, usage));
  let model = o.model;
  const budget = new RunBudget(ctx.config.maxCostPerRun, spent, () => model);
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    // The skill's own prompt and documents are not events; this stands for them (and says so if resumed).
    const inputs = describeInputs(o.values);
    const content = `(zhi ran the skill "${o.skill}"${inputs ? ` with: ${inputs}` : ''})`;
    recorder.observe({ type: 'user', message: { role: 'user', content } });
  };

  return {
    observe(ev) {
      if (!isAgentEvent(ev)) return;
      start();
      if (ev.type === 'turn_start') model = ev.model;
      if (ev.type !== 'usage') recorder.observe(ev);
    },
    nested(ev, chain) {
      if (ev.type === 'turn_start') model = ev.model;
      if (ev.type !== 'usage') return;
      start();
      const skill = chain[chain.length - 1];
      recorder.recordUsage({ model: ev.model, usage: ev.usage, cost: ev.cost, purpose: 'skill', skill });
      spent.add(ev.model, ev.usage);
    },
    hooks: {
      spill: (call, content) => recorder.spill(call, content),
      beforeCall: async (messages) => {
        const error = budget.check(messages);
        return error ? { stop: error } : {};
      },
    },
    finish(result) {
      if (result && started) recorder.observe({ type: 'done', result });
      stop();
      unspend();
      recorder.close();
    },
  };
}
