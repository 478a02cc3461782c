/**
 * Running the tool calls of one model response: argument validation against each tool's schema,
 * the permission policy, execution with a context, result caps, and the events around them.
 */
import type { z } from 'zod';
import type { ToolCall, ToolMessage } from '../llm/types.js';
import { ZhiError } from '../support/errors.js';
import { type Params, t } from '../support/i18n/index.js';
import { log } from '../support/log.js';
import { visible } from '../support/sanitize.js';
import { truncateText } from '../support/text.js';
import {
  ALWAYS_SITE,
  type AnyTool,
  type Assessment,
  type Notice,
  type ToolContext,
  ToolError,
  type WrittenFile,
} from '../tools/types.js';
import type { AgentResult, RunEvent } from './events.js';
import type { AgentDeps, AgentOptions } from './loop.js';
import { decide, siteHost, sitePreapproved } from './permissions.js';
import { AsyncQueue } from './queue.js';

/** The default cap on what the model gets back from one tool call. */
export const MAX_RESULT_BYTES = 50 * 1024;

const READ_LIKE = new Set(['file_read', 'ocr']);

interface CallOutcome {
  content: string;
  ok: boolean;
}

/**
 * Run one response's tool calls. Consecutive read-only calls run in parallel; the others one at
 * a time (they may ask a person). Results are returned in the model's order.
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
  const groups: number[][] = [];
  calls.forEach((call, i) => {
    // Reads that may ask (web_fetch) run one at a time, like everything that asks.
    const quiet = (n: string) => {
      const t2 = deps.tools.get(n);
      return !t2 || (t2.kind === 'read' && !t2.site);
    };
    const parallel = quiet(call.function.name);
    const last = groups[groups.length - 1];
    const lastParallel = last?.every((j) => quiet(calls[j]!.function.name));
    if (parallel && last && lastParallel) last.push(i);
    else groups.push([i]);
  });

  for (const group of groups) {
    if (signal.aborted) break;
    const queue = new AsyncQueue<RunEvent>();
    const tasks = group.map(async (i) => {
      const call = calls[i]!;
      outcomes[i] = await runOne(call, i, calls.length, deps, opts, signal, clock, result, (ev) =>
        queue.push(ev),
      );
    });
    void Promise.all(tasks).finally(() => queue.close());
    for await (const ev of queue) yield ev;
  }

  return calls.map((call, i) => ({
    role: 'tool' as const,
    tool_call_id: call.id,
    content: outcomes[i]?.content ?? t('agent.tool.interrupted'),
  }));
}

async function runOne(
  call: ToolCall,
  index: number,
  total: number,
  deps: AgentDeps,
  opts: AgentOptions,
  signal: AbortSignal,
  clock: () => number,
  result: AgentResult,
  emit: (ev: RunEvent) => void,
): Promise<CallOutcome> {
  const name = call.function.name;
  const tool = deps.tools.get(name);
  // Restarted after a permission question, so durations never include the person's thinking time.
  let started = clock();
  result.toolCalls += 1;
  let label = name;
  const end = (outcome: CallOutcome): CallOutcome => {
    emit({
      type: 'tool_end',
      id: call.id,
      name,
      label,
      ok: outcome.ok,
      result: outcome.content,
      durationMs: clock() - started,
      index,
      total,
    });
    return outcome;
  };
  const fail = (content: string) => end({ content: `Error: ${content}`, ok: false });

  if (!tool) {
    emit({ type: 'tool_start', id: call.id, name, label, args: call.function.arguments, index, total });
    return fail(t('agent.tool.unknown', { name, available: deps.tools.names().join(', ') || '-' }, 'en'));
  }
  const parsed = parseArgs(tool, call.function.arguments);
  if ('error' in parsed) {
    emit({ type: 'tool_start', id: call.id, name, label, args: call.function.arguments, index, total });
    return fail(parsed.error);
  }
  const args = parsed.value;
  try {
    label = tool.label?.(args) ?? name;
  } catch {
    label = name;
  }
  emit({ type: 'tool_start', id: call.id, name, label, args, index, total });

  const files: WrittenFile[] = [];
  const ctx: ToolContext = {
    cwd: deps.cwd,
    outputDir: deps.outputDir,
    signal,
    interactive: deps.prompter.interactive,
    ask: (q) => (deps.prompter.interactive ? deps.prompter.ask(q, signal) : Promise.resolve(false)),
    recordFile: (f) => {
      files.push(f);
      result.filesWritten.push(f);
    },
    progress: (note) => emit({ type: 'progress', id: call.id, note }),
    usage: deps.usage,
    reportUsage: (model, usage) => {
      const cost = deps.usage.add(model, usage);
      emit({ type: 'usage', model, usage, cost });
    },
    emit: (event) => emit(event as RunEvent),
    client: deps.client,
    services: deps.services ?? {},
  };

  let assessment: Assessment;
  try {
    assessment = (await tool.assess?.(args, ctx)) ?? {};
  } catch (err) {
    // A call that cannot work (a name no system can store) fails before anyone is asked.
    if (!(err instanceof ToolError)) throw err;
    if (err.notice) emit({ type: 'warning', message: noticeText(err.notice) });
    return fail(err.message);
  }
  if (assessment.refuse) {
    emit({ type: 'permission', id: call.id, name, decision: 'refused', reason: assessment.refuse });
    return fail(t('agent.tool.refused', { reason: assessment.refuse }, 'en'));
  }
  const siteUrl = tool.site?.(args);
  const host = siteUrl === undefined ? undefined : siteHost(siteUrl);
  const site = siteUrl === undefined ? undefined : { preapproved: sitePreapproved(siteUrl, deps.webGrants) };
  const decision = decide(tool.kind, opts.mode, deps.prompter.interactive, site);
  if (decision === 'deny') {
    if (siteUrl !== undefined) {
      const reason = t('agent.tool.siteNoTerminal', { url: siteUrl }, 'en');
      const notice = noticeText({ key: 'safety.fetch.noTerminal', params: { name, url: siteUrl } });
      emit({ type: 'permission', id: call.id, name, decision: 'denied', reason, notice });
      return fail(reason);
    }
    const reason = t('agent.tool.noTerminal', {}, 'en');
    emit({ type: 'permission', id: call.id, name, decision: 'denied', reason, code: 'no_terminal' });
    return fail(reason);
  }
  if (decision === 'ask') {
    const answer = await deps.prompter.confirmTool(
      {
        name,
        kind: tool.kind,
        args,
        preview: tool.preview?.(args, ctx) ?? defaultPreview(args),
        warning: assessment.warning,
        ...(assessment.summary ? { summary: assessment.summary } : {}),
        ...(assessment.choices?.length ? { choices: assessment.choices } : {}),
        ...(assessment.full ? { full: assessment.full } : {}),
      },
      signal,
    );
    const yes = answer !== false;
    // Only grants that were offered count: a prompter cannot invent a wider sandbox.
    if (typeof answer === 'object') {
      const offered = new Set(assessment.choices?.map((c) => c.grant));
      ctx.granted = answer.grants.filter((g) => offered.has(g));
    }
    if (signal.aborted) return end({ content: t('agent.tool.interrupted', {}, 'en'), ok: false });
    emit({ type: 'permission', id: call.id, name, decision: yes ? 'allowed' : 'denied' });
    if (!yes) return fail(t('agent.tool.denied', {}, 'en'));
    // "Always for this domain": later fetches from the same host run without a question.
    if (host && ctx.granted?.includes(ALWAYS_SITE)) deps.webGrants?.hosts.add(host);
    started = clock();
  }

  try {
    const out = await tool.execute(args, ctx);
    const raw = typeof out === 'string' ? out : out.content;
    const isError = typeof out === 'string' ? false : Boolean(out.isError);
    if (READ_LIKE.has(name) && !isError) result.filesRead += 1;
    const cap = tool.maxResultBytes ?? opts.maxResultBytes ?? MAX_RESULT_BYTES;
    let content = raw;
    if (Buffer.byteLength(raw, 'utf8') > cap) {
      content = (await deps.spill?.(call, raw)) ?? truncateText(raw, cap).text;
    }
    return end({ content: isError ? `Error: ${content}` : content, ok: !isError });
  } catch (err) {
    if (signal.aborted) return end({ content: t('agent.tool.interrupted', {}, 'en'), ok: false });
    if (err instanceof ToolError) {
      if (err.notice) emit({ type: 'warning', message: noticeText(err.notice) });
      return fail(err.message);
    }
    if (err instanceof ZhiError) return fail(`${err.whatText()}${err.whyText() ? ` ${err.whyText()}` : ''}`);
    log().error(`tool ${name} threw`, err);
    return fail(
      t('agent.tool.threw', { name, message: err instanceof Error ? err.message : String(err) }, 'en'),
    );
  }
}

/** A refusal for the person, in their language; parameters (paths, URLs) came from the model. */
export function noticeText(notice: Notice): string {
  const params: Params = {};
  for (const [k, v] of Object.entries(notice.params ?? {}))
    params[k] = typeof v === 'string' ? visible(v) : v;
  return t(notice.key, params);
}

function parseArgs(tool: AnyTool, raw: string): { value: unknown } | { error: string } {
  let json: unknown;
  const text = raw.trim() === '' ? '{}' : raw;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return {
      error: t('agent.tool.badJson', { name: tool.name, detail: (err as Error).message }, 'en'),
    };
  }
  const parsed = (tool.schema as z.ZodType).safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((i) => `${i.path.length ? i.path.join('.') : '(arguments)'}: ${i.message}`)
      .join('; ');
    return { error: t('agent.tool.badArgs', { name: tool.name, problems }, 'en') };
  }
  return { value: parsed.data };
}

function defaultPreview(args: unknown): string {
  const text = JSON.stringify(args, null, 2) ?? '';
  return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
}
