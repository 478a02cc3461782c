/**
 * A skill run (`zhi run`, `/run`) saved as a session of kind `run`: found by `zhi sessions`, its
 * usage in the ledger as kind `skill`, the run budget checked before every model call. Like a
 * chat's SessionWiring, it is a consumer of the run's events, built in the same place.
 */
import { UsageTracker } from '../../llm/usage.js';
import type { CostGate } from '../budget.js';
import type { RunEvent } from '../events.js';
import type { AgentDeps } from '../loop.js';
import { budgetIn, recorderIn, type SessionPlace } from './wiring.js';

/** What a skill run needs to be saved, ledgered and budgeted. */
export interface SkillRunRecording {
  /** The consumer of the run's events (nested runs' too: their usage is recorded under their skill). */
  consume(ev: RunEvent): void;
  /** For every agent loop of the run (nested ones too): large results spill, the budget is checked. */
  hooks: Pick<AgentDeps, 'beforeCall' | 'spill'>;
  /** `max_cost_per_run` for steps that estimate their cost before they start (long documents). */
  budget: CostGate;
  /** The run ended (or failed to start): close the file. */
  finish(): void;
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

const SKILL_ONLY = new Set<RunEvent['type']>(['skill_start', 'skill_step', 'skill_ocr', 'skill_asr']);

/**
 * Record a skill run. The run's inputs stand as its first message; nothing is written until the
 * run starts talking to the model. Every `usage` event of the run is recorded, nested ones under
 * their skill.
 */
export function recordSkillRun(
  place: SessionPlace,
  o: { skill: string; values: Record<string, unknown>; model: string },
): SkillRunRecording {
  const recorder = recorderIn(place, {
    kind: 'run',
    skill: o.skill,
    model: o.model,
    title: describeInputs(o.values) || o.skill,
  });
  // Spent by the whole run, nested skills included (their trackers are merged only at their end).
  const spent = new UsageTracker(place.platform);
  let model = o.model;
  const budget = budgetIn(place, spent, () => model);
  let started = false;

  return {
    consume(ev) {
      const inner = ev.type === 'nested' ? ev.event : ev;
      if (inner.type === 'turn_start') model = inner.model;
      if (inner.type === 'usage') spent.add(inner.model, inner.usage);
      if (SKILL_ONLY.has(inner.type) || (ev.type === 'nested' && inner.type !== 'usage')) return;
      if (!started && ev.type === 'done') return;
      if (!started) {
        started = true;
        // The skill's own prompt and documents are not events; this stands for them (and says so if resumed).
        const inputs = describeInputs(o.values);
        const content = `(zhi ran the skill "${o.skill}"${inputs ? ` with: ${inputs}` : ''})`;
        recorder.consume({ type: 'user', message: { role: 'user', content } });
      }
      recorder.consume(ev);
    },
    hooks: {
      spill: (call, content) => recorder.spill(call, content),
      beforeCall: async (messages) => {
        const error = budget.check(messages);
        return error ? { stop: error } : {};
      },
    },
    budget,
    finish() {
      recorder.close();
    },
  };
}
