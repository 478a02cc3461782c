/**
 * Skill runs from the page: `zhi run <skill> <files or folder> [--batch] [--dry-run]` with the
 * events on a channel instead of the terminal. The run is recordedSkillRun (cli/skills/execute.ts):
 * the same session record, ledger, run budget, folder run record in the output folder, and the
 * same resume — a folder run started again skips the files its record says are done.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AgentResult, EstimateFigures } from '../../agent/events.js';
import { batchBlocker } from '../../agent/skills/batchable.js';
import { isFreeForm, splitFreeForm } from '../../skills/free-form.js';
import { inputError, lacksContent, mapCliInputs } from '../../skills/inputs.js';
import type { Skill } from '../../skills/schema.js';
import { toZhiError } from '../../support/errors.js';
import { getLanguage } from '../../support/i18n/index.js';
import { newUsage } from '../client.js';
import type { AppContext } from '../context.js';
import type { FolderFlags } from '../folder-flags.js';
import { isDelta, streamJsonEvent } from '../render/formats/stream-json.js';
import { findSkill, recordedSkillRun } from '../skills/execute.js';
import { loadCatalog } from '../skills/runtime.js';
import type { Approvals } from './approvals.js';
import { EventChannel } from './channel.js';
import { errorBody, httpError, needKey } from './http.js';

export interface SkillRunOrder {
  inputs: string[];
  batch?: boolean;
  /** Redo the files the run record says are done (`--force`). */
  force?: boolean;
  dryRun?: boolean;
}

interface LiveRun {
  id: string;
  skill: string;
  inputs: string[];
  batch: boolean;
  startedAt: string;
  state: 'running' | 'done' | 'stopped' | 'failed';
  channel: EventChannel;
  abort: AbortController;
  done: Promise<AgentResult | undefined>;
  result?: unknown;
}

export interface SkillListItem {
  name: string;
  description: string;
  source: string;
  model: string;
  inputs: { name: string; type: string; required: boolean; description: string }[];
}

export class SkillRuns {
  private readonly runs = new Map<string, LiveRun>();

  constructor(
    private readonly ctx: () => AppContext,
    private readonly approvals: Approvals,
  ) {}

  async list(): Promise<SkillListItem[]> {
    const ctx = this.ctx();
    const catalog = await loadCatalog(ctx, () => undefined);
    const zh = getLanguage() === 'zh';
    return [...catalog.skills.values()]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((s) => ({
        name: s.name,
        description: (zh && s.descriptionZh) || s.description,
        source: s.source,
        model: s.model ?? ctx.config.skillModel,
        inputs: s.args.map((a) => ({
          name: a.name,
          type: a.type,
          required: a.required,
          description: (zh && a.descriptionZh) || a.description || '',
        })),
      }));
  }

  /** The dry run's estimate (files, tokens, the price on this model, on the chat model, with --batch). */
  async estimate(
    name: string,
    order: SkillRunOrder,
  ): Promise<EstimateFigures & { text: string; lines: string[] }> {
    const run = await this.start(name, { ...order, dryRun: true });
    const result = await run.done;
    this.runs.delete(run.id);
    const text = result?.text ?? '';
    if (run.state === 'failed' || !result?.estimated) {
      const error = (run.result as { error?: { message?: string } } | undefined)?.error?.message ?? text;
      throw httpError(400, { what: { key: 'web.err.internal', params: { detail: error } } });
    }
    return { ...result.estimated, text, lines: text.split('\n') };
  }

  /** Start a run; its events go to its channel (`GET /api/runs/:id/events`). */
  async start(name: string, order: SkillRunOrder): Promise<LiveRun> {
    const ctx = this.ctx();
    const catalog = await loadCatalog(ctx, () => undefined);
    const skill = findSkillOr404(catalog, name);
    if (!order.inputs.length) throw httpError(400, { what: { key: 'web.err.noInputs' } });
    const free = isFreeForm(skill) ? await splitFreeForm(ctx.cwd, order.inputs, {}) : undefined;
    const values = free ? {} : mapCliInputs(skill, order.inputs, {});
    if (!free && lacksContent(skill, values))
      throw inputError(skill, { key: 'skills.err.noInput', params: { skill: skill.name } });
    const folder: FolderFlags = {
      recursive: false,
      force: Boolean(order.force),
      batch: Boolean(order.batch),
      dryRun: Boolean(order.dryRun),
      wait: false,
      include: [],
      exclude: [],
    };
    const blocker = folder.batch ? batchBlocker(skill) : undefined;
    if (blocker) throw blocker;
    if (!folder.dryRun) needKey(ctx.config);
    const id = randomBytes(6).toString('hex');
    const channel = new EventChannel();
    const abort = new AbortController();
    channel.startRun(id);
    const run: LiveRun = {
      id,
      skill: skill.name,
      inputs: order.inputs,
      batch: folder.batch,
      startedAt: new Date().toISOString(),
      state: 'running',
      channel,
      abort,
      done: Promise.resolve(undefined),
    };
    run.done = this.drive(run, ctx, {
      catalog,
      skill,
      values,
      folder,
      ...(free ? { task: free.task, files: free.files } : {}),
    });
    this.runs.set(id, run);
    return run;
  }

  private async drive(
    run: LiveRun,
    ctx: AppContext,
    o: {
      catalog: Awaited<ReturnType<typeof loadCatalog>>;
      skill: Skill;
      values: ReturnType<typeof mapCliInputs>;
      folder: FolderFlags;
      task?: string;
      files?: string[];
    },
  ): Promise<AgentResult | undefined> {
    let result: AgentResult | undefined;
    try {
      const events = recordedSkillRun({
        ...o,
        ctx,
        model: undefined,
        prompter: this.approvals.prompter(run.channel),
        mode: ctx.mode,
        signal: run.abort.signal,
        usage: newUsage(ctx),
      });
      let step = await events.next();
      while (!step.done) {
        const ev = step.value;
        if (!(isDelta(ev) && ev.type === 'nested')) run.channel.emit('run', streamJsonEvent(ev));
        step = await events.next();
      }
      result = step.value;
      const { error, ...rest } = result;
      run.result = { ...rest, ...(error ? errorBody(error) : {}) };
      run.state = run.abort.signal.aborted ? 'stopped' : result.stopReason === 'error' ? 'failed' : 'done';
    } catch (err) {
      run.state = 'failed';
      run.result = { stopReason: 'error', ...errorBody(toZhiError(err)) };
    }
    run.channel.emit('run_end', { runId: run.id, result: run.result });
    return result;
  }

  get(id: string): LiveRun {
    const run = this.runs.get(id);
    if (!run) throw httpError(404, { what: { key: 'web.err.noRun', params: { id } } });
    return run;
  }

  all(): LiveRun[] {
    return [...this.runs.values()];
  }

  stop(id: string): boolean {
    const run = this.get(id);
    if (run.state !== 'running') return false;
    run.abort.abort();
    return true;
  }

  attach(id: string, req: IncomingMessage, res: ServerResponse): void {
    this.get(id).channel.attach(req, res);
  }

  ping(): void {
    for (const run of this.runs.values()) run.channel.ping();
  }

  async close(): Promise<void> {
    for (const run of this.runs.values()) run.abort.abort();
    await Promise.all([...this.runs.values()].map((r) => r.done.catch(() => undefined)));
    for (const run of this.runs.values()) run.channel.close();
  }
}

function findSkillOr404(catalog: Awaited<ReturnType<typeof loadCatalog>>, name: string): Skill {
  try {
    return findSkill(catalog, name);
  } catch {
    throw httpError(404, {
      what: { key: 'web.err.skill', params: { name } },
      tries: [{ key: 'web.err.skillTry' }],
    });
  }
}

/** What the list of runs says about a live run. */
export function runSummary(run: LiveRun) {
  return {
    id: run.id,
    kind: 'live' as const,
    skill: run.skill,
    inputs: run.inputs,
    batch: run.batch,
    state: run.state,
    startedAt: run.startedAt,
    ...(run.result ? { result: run.result } : {}),
  };
}
