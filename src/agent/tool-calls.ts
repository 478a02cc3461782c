/**
 * Running the tool calls of one model response: argument validation against each tool's schema,
 * the permission policy, execution with a context, result caps, and the events around them.
 */
import type { ToolCall, ToolMessage } from '../llm/types.js';
import { pushAll } from '../support/arrays.js';
import { ZhiError } from '../support/errors.js';
import { t } from '../support/i18n/index.js';
import { log } from '../support/log.js';
import { truncateText } from '../support/text.js';
import { type AnyTool, type ToolContext, ToolError, traitsOfTool, type WrittenFile } from '../tools/types.js';
import type { AgentDeps, AgentOptions } from './agent-deps.js';
import { decideCall } from './call-decision.js';
import {
  type CallOutcome,
  type CallSlot,
  failure,
  noticeText,
  type Prepared,
  type RunParts,
} from './call-parts.js';
import { mayReach } from './egress.js';
import type { AgentResult, RunEvent } from './events.js';
import { AsyncQueue } from './queue.js';
import { parseArgs } from './tool-args.js';
import { hookBlocked, tellHook } from './tool-hooks.js';

export { noticeText } from './call-parts.js';

/** The default cap on what the model gets back from one tool call. */
export const MAX_RESULT_BYTES = 50 * 1024;

/**
 * Run one response's tool calls. Consecutive read-only calls run in parallel; the others one at
 * a time (they may ask a person). Results are returned in the model's order; the run's counters
 * (tool calls, files read and written) are added up from the `tool_end` events.
 */
export async function* runToolCalls(
  calls: ToolCall[],
  deps: AgentDeps,
  opts: AgentOptions,
  signal: AbortSignal,
  clock: () => number,
  result: AgentResult,
): AsyncGenerator<RunEvent, ToolMessage[]> {
  const outcomes: (CallOutcome | undefined)[] = new Array(calls.length);
  const run = { deps, opts, signal, clock };
  for (const group of parallelGroups(calls, deps)) {
    if (signal.aborted) break;
    const queue = new AsyncQueue<RunEvent>();
    const tasks = group.map(async (index) => {
      const slot = {
        call: calls[index]!,
        index,
        total: calls.length,
        emit: (ev: RunEvent) => queue.push(ev),
      };
      outcomes[index] = await runOne(slot, run);
    });
    void Promise.all(tasks).finally(() => queue.close());
    for await (const ev of queue) {
      if (ev.type === 'tool_end') count(result, ev);
      yield ev;
    }
  }
  return calls.map((call, i) => ({
    role: 'tool' as const,
    tool_call_id: call.id,
    content: outcomes[i]?.content ?? t('agent.tool.interrupted'),
  }));
}

function count(result: AgentResult, ev: Extract<RunEvent, { type: 'tool_end' }>): void {
  result.toolCalls += 1;
  result.filesRead += ev.filesRead;
  pushAll(result.filesWritten, ev.filesWritten);
}

/** Indexes of the calls, grouped: a run of read-only (or unknown) calls together, every other alone. */
function parallelGroups(calls: ToolCall[], deps: AgentDeps): number[][] {
  // Reads that send something out (web_fetch, web_search) may ask: one at a time, like everything that asks.
  const readOnly = (i: number) => {
    const tool = deps.tools.get(calls[i]!.function.name);
    return !tool || (tool.kind === 'read' && !tool.egress);
  };
  const groups: number[][] = [];
  calls.forEach((_, i) => {
    const last = groups[groups.length - 1];
    if (readOnly(i) && last?.every(readOnly)) last.push(i);
    else groups.push([i]);
  });
  return groups;
}

/** One tool call: prepare (find, parse, label) → decide (assess, policy, ask) → execute → finalize. */
async function runOne(slot: CallSlot, run: RunParts): Promise<CallOutcome> {
  // Restarted after a permission question, so durations never include the person's thinking time.
  let started = run.clock();
  await awaitPending(slot, run.deps);
  const prep = prepare(slot.call, run.deps);
  const { call, index, total, emit } = slot;
  const args = 'args' in prep ? prep.args : call.function.arguments;
  emit({ type: 'tool_start', id: call.id, name: prep.name, label: prep.label, args, index, total });
  const finalize = (o: CallOutcome) => end(slot, prep, o, run.clock() - started);
  if ('error' in prep) return finalize(failure(prep.error));
  // A deferred tool called by name (found earlier, or known from a resumed session) is offered from now on.
  if (run.deps.tools.isDeferred(prep.name)) run.deps.tools.load([prep.name]);
  const files: WrittenFile[] = [];
  const ctx = toolContext(slot, run, files);
  const blocked = await hookBlocked(run.deps.runHook, slot, { tool: prep.name, arguments: prep.args });
  if (blocked !== undefined) return finalize(failure(t('agent.tool.refused', { reason: blocked }, 'en')));
  const verdict = await decideCall(prep, ctx, slot, run);
  if (verdict.outcome) return finalize(verdict.outcome);
  if (verdict.asked) started = run.clock();
  const outcome = await execute(prep, ctx, slot, run);
  await tellHook(run.deps.runHook, slot.emit, {
    event: 'after_tool',
    tool: prep.name,
    arguments: prep.args,
    ok: outcome.ok,
    result: outcome.content,
  });
  return finalize({ ...outcome, filesWritten: files });
}

/** A call of a tool not there yet while servers start in the background: wait for its server (its own timeout). */
async function awaitPending(slot: CallSlot, deps: AgentDeps): Promise<void> {
  const name = slot.call.function.name;
  const pending = deps.tools.pending;
  if (!pending || deps.tools.has(name) || !pending.starting().length) return;
  const { warnings } = await pending.settle(name);
  for (const message of warnings) slot.emit({ type: 'warning', message });
}

/** Find the tool and check the arguments against its schema; the label is what lines show. */
function prepare(call: ToolCall, deps: AgentDeps): Prepared {
  const name = call.function.name;
  const tool = deps.tools.get(name);
  if (!tool) {
    const available = deps.tools.names().join(', ') || '-';
    return { name, label: name, error: t('agent.tool.unknown', { name, available }, 'en') };
  }
  const parsed = parseArgs(tool, call.function.arguments);
  if ('error' in parsed) return { name, label: name, error: parsed.error };
  let label = name;
  try {
    label = tool.label?.(parsed.value) ?? name;
  } catch {
    label = name;
  }
  return { name, label, tool, args: parsed.value };
}

function end(slot: CallSlot, prep: Prepared, outcome: CallOutcome, durationMs: number): CallOutcome {
  const { call, index, total } = slot;
  slot.emit({
    type: 'tool_end',
    id: call.id,
    name: prep.name,
    label: prep.label,
    ok: outcome.ok,
    result: outcome.content,
    durationMs,
    index,
    total,
    filesRead: outcome.filesRead,
    filesWritten: outcome.filesWritten,
    ...(outcome.display?.length ? { display: outcome.display } : {}),
  });
  return outcome;
}

/** What a tool can reach while it runs. */
function toolContext(slot: CallSlot, run: RunParts, files: WrittenFile[]): ToolContext {
  const { deps, signal } = run;
  const { emit } = slot;
  return {
    cwd: deps.cwd,
    outputDir: deps.outputDir,
    signal,
    interactive: deps.prompter.interactive,
    priceAgreed: deps.priceAgreed === true || run.opts.mode === 'auto',
    ask: (q) => (deps.prompter.interactive ? deps.prompter.ask(q, signal) : Promise.resolve(false)),
    recordFile: (f) => files.push(f),
    ...(deps.beforeWrite ? { beforeWrite: deps.beforeWrite } : {}),
    progress: (note) => emit({ type: 'progress', id: slot.call.id, note }),
    usage: deps.usage,
    reportUsage: (model, usage) => {
      const cost = deps.usage.add(model, usage);
      emit({ type: 'usage', model, usage, cost });
    },
    emit: (event) => emit(event as RunEvent),
    mayReach: (url) => mayReach(url, deps.grants?.web),
    ...(deps.extraReadable?.length ? { extraReadable: deps.extraReadable } : {}),
    ...(deps.named ? { named: deps.named } : {}),
  };
}

/** Run the tool; a throw becomes an error result the model can read, a long result is capped. */
async function execute(
  prep: Extract<Prepared, { tool: AnyTool }>,
  ctx: ToolContext,
  slot: CallSlot,
  run: RunParts,
): Promise<CallOutcome> {
  const { tool, name, args } = prep;
  try {
    const out = await tool.execute(args, ctx);
    const raw = typeof out === 'string' ? out : out.content;
    const isError = typeof out === 'string' ? false : Boolean(out.isError);
    const traits = traitsOfTool(tool);
    const cap = traits.maxResultBytes ?? run.opts.maxResultBytes ?? MAX_RESULT_BYTES;
    let content = raw;
    if (Buffer.byteLength(raw, 'utf8') > cap) {
      content = (await run.deps.spill?.(slot.call, raw)) ?? truncateText(raw, cap).text;
    }
    const filesRead = traits.readsFile && !isError ? 1 : 0;
    const display = typeof out === 'string' ? undefined : out.display;
    return {
      content: isError ? `Error: ${content}` : content,
      ok: !isError,
      filesRead,
      filesWritten: [],
      ...(display ? { display } : {}),
    };
  } catch (err) {
    if (run.signal.aborted) return { ...failure(''), content: t('agent.tool.interrupted', {}, 'en') };
    if (err instanceof ToolError) {
      if (err.notice) slot.emit({ type: 'warning', message: noticeText(err.notice) });
      return failure(err.message);
    }
    if (err instanceof ZhiError)
      return failure(`${err.whatText()}${err.whyText() ? ` ${err.whyText()}` : ''}`);
    log().error(`tool ${name} threw`, err);
    const message = err instanceof Error ? err.message : String(err);
    return failure(t('agent.tool.threw', { name, message }, 'en'));
  }
}
