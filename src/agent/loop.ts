import type { z } from 'zod';
import type { ZhipuClient } from '../llm/client.js';
import { describeApiError } from '../llm/describe.js';
import type { AssistantMessage, LlmClient, Message, ToolCall, ToolMessage } from '../llm/types.js';
import { ZhiError } from '../support/errors.js';
import { t } from '../support/i18n/index.js';
import { log } from '../support/log.js';
import type { ToolRegistry } from '../tools/registry.js';
import {
  type AnyTool,
  type Question,
  type ToolContext,
  ToolError,
  type WrittenFile,
} from '../tools/types.js';
import type { AgentEvent, AgentResult } from './events.js';
import { decide, type PermissionMode } from './permissions.js';
import { AsyncQueue } from './queue.js';
import { truncateText } from '../support/text.js';
import type { UsageTracker } from '../llm/usage.js';

export const MAX_RESULT_BYTES = 50 * 1024;

export interface ToolApproval {
  name: string;
  kind: AnyTool['kind'];
  args: unknown;
  /** The arguments as a person should read them. */
  preview: string;
  warning?: string | undefined;
}

/** How the loop reaches a person. A fake in tests; the terminal in the REPL; a "no" when piped. */
export interface Prompter {
  readonly interactive: boolean;
  confirmTool(req: ToolApproval, signal: AbortSignal): Promise<boolean>;
  ask(question: Question, signal: AbortSignal): Promise<boolean>;
}

export interface AgentDeps {
  llm: LlmClient;
  tools: ToolRegistry;
  prompter: Prompter;
  usage: UsageTracker;
  cwd: string;
  outputDir: string;
  clock?: () => number;
  client?: ZhipuClient;
  services?: Record<string, unknown>;
  /** A tool result over the cap: may save the whole text and return what the model gets instead. */
  spill?: (call: ToolCall, content: string) => Promise<string | undefined>;
  /**
   * Runs before every model call with the messages about to be sent (compaction, budgets). It may
   * shrink `messages` in place, return notices to show (as warnings), or a reason to stop the run
   * (the run then ends with stopReason 'budget' and that error).
   */
  beforeCall?: (messages: Message[]) => Promise<BeforeCallOutcome | undefined>;
  /** A context-window overflow: shrink the messages in place and return true to retry once. */
  onContextOverflow?: (messages: Message[]) => Promise<boolean>;
}

export interface BeforeCallOutcome {
  notices?: string[];
  stop?: ZhiError;
}

export interface AgentOptions {
  model: string;
  thinking: boolean;
  maxTurns: number;
  mode: PermissionMode;
  signal?: AbortSignal;
  maxResultBytes?: number;
  maxTokens?: number;
}

const READ_LIKE = new Set(['file_read', 'ocr']);

/**
 * The agent loop: send the conversation and tool schemas; run the tools the model asks for;
 * append the results; repeat until the model answers, the turn limit is reached, or the run is
 * interrupted. `messages` is appended to in place and is always left valid: every tool call gets
 * a result, and text already streamed is kept.
 */
export async function* runAgent(
  messages: Message[],
  deps: AgentDeps,
  opts: AgentOptions,
): AsyncGenerator<AgentEvent, AgentResult> {
  const clock = deps.clock ?? Date.now;
  const signal = opts.signal ?? new AbortController().signal;
  const result: AgentResult = {
    text: '',
    stopReason: 'answer',
    turns: 0,
    toolCalls: 0,
    filesRead: 0,
    filesWritten: [],
  };
  const schemas = deps.tools.schemas();
  let overflowRetried = false;

  const finish = (stop: AgentResult['stopReason'], error?: ZhiError): AgentResult => {
    result.stopReason = stop;
    if (error) result.error = error;
    return result;
  };

  while (result.turns < opts.maxTurns) {
    if (signal.aborted) return finish('aborted');
    result.turns += 1;
    yield { type: 'turn_start', turn: result.turns, model: opts.model };
    const before = await deps.beforeCall?.(messages);
    for (const message of before?.notices ?? []) yield { type: 'warning', message };
    if (before?.stop) {
      yield { type: 'error', error: before.stop };
      return finish('budget', before.stop);
    }

    let final: AssistantMessage | undefined;
    let finishReason: string | undefined;
    for await (const ev of deps.llm.stream({
      model: opts.model,
      messages,
      tools: schemas,
      thinking: opts.thinking,
      signal,
      ...(opts.maxTokens ? { maxTokens: opts.maxTokens } : {}),
    })) {
      switch (ev.type) {
        case 'text_delta':
        case 'thinking_delta':
          yield ev;
          break;
        case 'retry':
          yield ev;
          break;
        case 'tool_call_start':
          break;
        case 'done': {
          final = ev.message;
          finishReason = ev.finishReason;
          const cost = deps.usage.add(ev.model || opts.model, ev.usage);
          yield { type: 'usage', model: ev.model || opts.model, usage: ev.usage, cost };
          break;
        }
        case 'error': {
          if (ev.usage) {
            const cost = deps.usage.add(opts.model, ev.usage);
            yield { type: 'usage', model: opts.model, usage: ev.usage, cost };
          }
          const partial = ev.partial;
          if (ev.error.kind === 'context_overflow' && !overflowRetried && deps.onContextOverflow) {
            overflowRetried = true;
            // Shrink the conversation and ask once more (an answer cut off by the window is asked for again).
            if (await deps.onContextOverflow(messages)) {
              result.turns -= 1;
              final = undefined;
              finishReason = 'retry';
              break;
            }
          }
          // Keep what was already said: a partial answer stays in the conversation.
          if (partial.content) {
            const kept: AssistantMessage = { role: 'assistant', content: partial.content };
            messages.push(kept);
            yield { type: 'message', message: kept };
            result.text = partial.content;
          }
          if (ev.error.kind === 'aborted') return finish('aborted');
          const error = describeApiError(ev.error, deps.usage.platform);
          yield { type: 'error', error };
          return finish('error', error);
        }
      }
    }
    if (finishReason === 'retry') continue;
    if (!final) {
      const error = describeApiError(
        { kind: 'network', message: 'no response', retryable: false },
        deps.usage.platform,
      );
      yield { type: 'error', error };
      return finish('error', error);
    }

    const calls = final.tool_calls ?? [];
    if (!final.content && !calls.length) {
      // An empty answer would be rejected by the API if sent back (1214); keep the history valid.
      final.content = ' ';
    }
    messages.push(final);
    yield { type: 'message', message: final };

    if (!calls.length) {
      result.text = final.content.trim() ? final.content : '';
      if (finishReason === 'length') {
        result.truncated = true;
        yield { type: 'warning', message: t('cli.lengthCut') };
      }
      return finish('answer');
    }

    const outcome = yield* runToolCalls(calls, deps, opts, signal, clock, result);
    for (const msg of outcome) {
      messages.push(msg);
      yield { type: 'message', message: msg };
    }
    if (signal.aborted) return finish('aborted');
  }

  const error = new ZhiError({
    kind: 'turn_limit',
    what: { key: 'agent.turnLimit.what', params: { turns: opts.maxTurns } },
    tries: [{ key: 'agent.turnLimit.try' }],
  });
  yield { type: 'error', error };
  return finish('turn_limit', error);
}

interface CallOutcome {
  content: string;
  ok: boolean;
}

/**
 * Run one response's tool calls. Consecutive read-only calls run in parallel; the others one at
 * a time (they may ask a person). Results are returned in the model's order.
 */
async function* runToolCalls(
  calls: ToolCall[],
  deps: AgentDeps,
  opts: AgentOptions,
  signal: AbortSignal,
  clock: () => number,
  result: AgentResult,
): AsyncGenerator<AgentEvent, ToolMessage[]> {
  const outcomes: (CallOutcome | undefined)[] = new Array(calls.length);
  const groups: number[][] = [];
  calls.forEach((call, i) => {
    const tool = deps.tools.get(call.function.name);
    const parallel = !tool || tool.kind === 'read';
    const last = groups[groups.length - 1];
    const lastParallel = last?.every((j) => {
      const t2 = deps.tools.get(calls[j]!.function.name);
      return !t2 || t2.kind === 'read';
    });
    if (parallel && last && lastParallel) last.push(i);
    else groups.push([i]);
  });

  for (const group of groups) {
    if (signal.aborted) break;
    const queue = new AsyncQueue<AgentEvent>();
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
  emit: (ev: AgentEvent) => void,
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
    client: deps.client,
    services: deps.services ?? {},
  };

  const assessment = (await tool.assess?.(args, ctx)) ?? {};
  if (assessment.refuse) {
    emit({ type: 'permission', id: call.id, name, decision: 'refused', reason: assessment.refuse });
    return fail(t('agent.tool.refused', { reason: assessment.refuse }, 'en'));
  }
  const decision = decide(tool.kind, opts.mode, deps.prompter.interactive);
  if (decision === 'deny') {
    const reason = t('agent.tool.noTerminal', {}, 'en');
    emit({ type: 'permission', id: call.id, name, decision: 'denied', reason, code: 'no_terminal' });
    return fail(reason);
  }
  if (decision === 'ask') {
    const yes = await deps.prompter.confirmTool(
      {
        name,
        kind: tool.kind,
        args,
        preview: tool.preview?.(args, ctx) ?? defaultPreview(args),
        warning: assessment.warning,
      },
      signal,
    );
    if (signal.aborted) return end({ content: t('agent.tool.interrupted', {}, 'en'), ok: false });
    emit({ type: 'permission', id: call.id, name, decision: yes ? 'allowed' : 'denied' });
    if (!yes) return fail(t('agent.tool.denied', {}, 'en'));
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
    if (err instanceof ToolError) return fail(err.message);
    if (err instanceof ZhiError) return fail(`${err.whatText()}${err.whyText() ? ` ${err.whyText()}` : ''}`);
    log().error(`tool ${name} threw`, err);
    return fail(
      t('agent.tool.threw', { name, message: err instanceof Error ? err.message : String(err) }, 'en'),
    );
  }
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
