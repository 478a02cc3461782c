/**
 * One file of a folder run as the pool sees it: the job's run on it (never throwing for a problem
 * of that file: it becomes the result), and how its end counts — done, failed, tried again
 * (rate limits, overloads, the API not reached), or a stop for every file (no balance, bad key).
 */
import { resolve } from 'node:path';
import { UsageTracker } from '../../llm/usage.js';
import { ZhiError } from '../../support/errors.js';
import { traitsOf } from '../../tools/index.js';
import { displayPath } from '../../tools/paths.js';
import type { AgentResult, RunEvent } from '../events.js';
import { type FileResult, STOP_KINDS } from './folder-end.js';
import type { Attempt, PoolControl } from './pool.js';
import type { WriteLog } from './written.js';

export function classify(r: FileResult): Attempt<FileResult> {
  const err = r.error ?? r.result?.error;
  if (r.result?.stopReason === 'answer') return { kind: 'done', value: r };
  if (err?.kind === 'rate_limit') return { kind: 'retry', reason: 'rate_limit', value: r };
  if (err?.kind === 'overloaded') return { kind: 'retry', reason: 'overloaded', value: r };
  // Faults wait, not fail: a connection refused or dropped mid-answer, a timeout, a 5xx.
  if (err?.kind === 'server') return { kind: 'retry', reason: 'server', value: r };
  if (err && NETWORK_KINDS.has(err.kind)) return { kind: 'retry', reason: 'network', value: r };
  if (err && STOP_KINDS.has(err.kind)) return { kind: 'stop', value: r };
  if (r.result?.stopReason === 'budget') return { kind: 'stop', value: r };
  return { kind: 'failed', value: r };
}

/** Errors that mean the API was not reached (or not for long enough): the run waits for it. */
export const NETWORK_KINDS = new Set(['network', 'timeout', 'server']);

/** Yield everything of `gen`, then run `after` however it ended; its return value is passed on. */
export async function* withFinally<E, R>(
  gen: AsyncGenerator<E, R>,
  after: () => Promise<unknown>,
): AsyncGenerator<E, R> {
  try {
    return yield* gen;
  } finally {
    await after();
  }
}

/**
 * Run the job on one file (`start`, given the file's own usage tracker); never throws for a
 * problem of that file (it becomes the result).
 */
export async function runOne(
  start: (usage: UsageTracker) => AsyncGenerator<RunEvent, AgentResult>,
  run: { usage: UsageTracker; cwd: string },
  o: {
    ctl: PoolControl;
    forward: (ev: RunEvent) => void;
    log: WriteLog;
    /** A long document's parts as they are done, for the file's progress. */
    part?: (part: { done: number; total: number; round: number }) => void;
    /** Every event of the run, as it comes. */
    seen?: (ev: RunEvent) => void;
  },
): Promise<FileResult> {
  // Each file counts its own cost; every call still reaches the run's tracker (ledger, session).
  const mine = new UsageTracker(run.usage.platform);
  const outputs = (r: AgentResult | undefined) =>
    (r?.filesWritten ?? []).map((f) => displayPath(run.cwd, resolve(run.cwd, f.path)));
  try {
    const gen = start(mine);
    let step = await gen.next();
    while (!step.done) {
      const ev = step.value;
      o.seen?.(ev);
      if (ev.type === 'usage') {
        // The session file, the ledger and the run budget learn every call from these.
        o.forward(ev);
      } else if (ev.type === 'retry') {
        if (ev.error.kind === 'rate_limit' || ev.error.kind === 'overloaded') o.ctl.pressure(ev.error.kind);
        else if (ev.error.kind === 'server') o.ctl.pressure('server');
        else if (NETWORK_KINDS.has(ev.error.kind)) o.ctl.pressure('network');
      } else if (ev.type === 'warning' || (ev.type === 'permission' && ev.decision !== 'allowed')) {
        if (ev.type === 'permission') o.log.refused.push({ tool: ev.name, notice: ev.notice });
        o.forward(ev);
      } else if (ev.type === 'tool_end' && !ev.ok && traitsOf(ev.name).writesOutput) {
        o.log.failed.push(ev.name);
      } else if (ev.type === 'progress' && ev.part) {
        o.part?.(ev.part);
      }
      step = await gen.next();
    }
    return { result: step.value, cost: mine.cost().amount, outputs: outputs(step.value) };
  } catch (err) {
    if (!(err instanceof ZhiError)) throw err;
    return { error: err, cost: mine.cost().amount, outputs: [] };
  } finally {
    run.usage.merge(mine);
  }
}
