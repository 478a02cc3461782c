import { describeApiError } from '../llm/describe.js';
import type {
  AssistantMessage,
  Message,
  StreamEvent,
  StreamWarningCode,
  ToolCall,
  Usage,
} from '../llm/types.js';
import { ZhiError } from '../support/errors.js';
import { exhaustive } from '../support/exhaustive.js';
import { t } from '../support/i18n/index.js';
import { FILE_WRITE_TOOL } from '../tools/files/entries.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { AgentDeps, AgentOptions } from './agent-deps.js';
import { type AgentResult, emptyResult, type RunEvent } from './events.js';
import { refuseCutOffCalls, takeMessage } from './take-message.js';
import { estimateMessagesTokens, estimateTextTokens, estimateToolsTokens, TextTally } from './tokens.js';
import { runToolCalls } from './tool-calls.js';

export type {
  AgentDeps,
  AgentOptions,
  ApprovalAnswer,
  BeforeCallOutcome,
  Prompter,
  ToolApproval,
} from './agent-deps.js';
export { MAX_RESULT_BYTES } from './tool-calls.js';

/** One run of the loop: what every step reads and the result it builds up. */
interface Run {
  messages: Message[];
  deps: AgentDeps;
  opts: AgentOptions;
  signal: AbortSignal;
  result: AgentResult;
  /** A context overflow is shrunk and retried once per run. */
  overflowRetried: boolean;
}

/** How a turn ended: the model's message, a retry after shrinking, or the end of the run. */
type TurnEnd =
  | { kind: 'message'; final: AssistantMessage; finishReason: string | undefined }
  | { kind: 'retry' }
  | { kind: 'stop'; stop: AgentResult['stopReason']; error?: ZhiError };

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
): AsyncGenerator<RunEvent, AgentResult> {
  const clock = deps.clock ?? Date.now;
  const signal = opts.signal ?? new AbortController().signal;
  const result = emptyResult();
  const run: Run = { messages, deps, opts, signal, result, overflowRetried: false };
  const tools = new OfferedTools(deps.tools, messages);

  const finish = (stop: AgentResult['stopReason'], error?: ZhiError): AgentResult => {
    result.stopReason = stop;
    if (error) result.error = error;
    return result;
  };

  while (result.turns < opts.maxTurns) {
    if (signal.aborted) return finish('aborted');
    result.turns += 1;
    yield { type: 'turn_start', turn: result.turns, model: opts.model };
    const stopped = yield* beforeTurn(run);
    if (stopped) return finish(stopped.stop, stopped.error);

    const end = yield* streamTurn(run, tools.schemas());
    if (end.kind === 'retry') continue;
    if (end.kind === 'stop') return finish(end.stop, end.error);
    const calls = yield* takeMessage(run, end.final, end.finishReason);
    if (!calls.length) return finish('answer');
    if (end.finishReason === 'length') {
      yield* refuseCutOffCalls(run, calls);
      continue;
    }

    const writtenBefore = result.filesWritten.length;
    const outcome = yield* runToolCalls(calls, deps, opts, signal, clock, result);
    for (const msg of outcome) {
      messages.push(msg);
      yield { type: 'message', message: msg };
    }
    if (signal.aborted) return finish('aborted');
    const answer = answerWritten(opts, calls, result.filesWritten.length - writtenBefore);
    if (answer !== undefined) {
      // The file is the answer: shown as if said, and no second call to repeat it.
      result.text = answer;
      yield { type: 'text_delta', text: answer };
      return finish('answer');
    }
  }

  const error = new ZhiError({
    kind: 'turn_limit',
    what: { key: 'agent.turnLimit.what', params: { turns: opts.maxTurns } },
    tries: [{ key: 'agent.turnLimit.try' }],
  });
  yield { type: 'error', error };
  return finish('turn_limit', error);
}

/** The answer a turn of successful file_write calls stands for, when the run takes its file as the answer. */
function answerWritten(opts: AgentOptions, calls: ToolCall[], written: number): string | undefined {
  if (!opts.answerFromWrite || written !== calls.length) return undefined;
  if (!calls.every((c) => c.function.name === FILE_WRITE_TOOL.name)) return undefined;
  const args: Record<string, unknown>[] = [];
  for (const c of calls) {
    try {
      const parsed = JSON.parse(c.function.arguments || '{}') as unknown;
      if (!parsed || typeof parsed !== 'object') return undefined;
      args.push(parsed as Record<string, unknown>);
    } catch {
      return undefined;
    }
  }
  return opts.answerFromWrite(args);
}

/** The tool schemas offered, read again when tools come or go during the run. */
class OfferedTools {
  private current: ReturnType<ToolRegistry['schemas']>;
  private version: number;

  constructor(
    private readonly tools: ToolRegistry,
    private readonly messages: Message[],
  ) {
    this.current = tools.schemas(userText(messages));
    this.version = tools.version;
  }

  schemas(): ReturnType<ToolRegistry['schemas']> {
    if (this.tools.version !== this.version) {
      // Tools came or went during the run (an MCP server stopped for good).
      this.current = this.tools.schemas(userText(this.messages));
      this.version = this.tools.version;
    }
    return this.current;
  }
}

/** The hook before each model call (compaction, budgets): its events, and a stop if it says so. */
async function* beforeTurn(
  run: Run,
): AsyncGenerator<RunEvent, Extract<TurnEnd, { kind: 'stop' }> | undefined> {
  const before = await run.deps.beforeCall?.(run.messages, run.signal);
  yield* before?.events ?? [];
  for (const message of before?.notices ?? []) yield { type: 'warning', message };
  if (before?.stop) {
    yield { type: 'error', error: before.stop };
    return { kind: 'stop', stop: 'budget', error: before.stop };
  }
  // Interrupted while the hook worked (a compaction summary): stop before calling the model.
  if (run.signal.aborted) return { kind: 'stop', stop: 'aborted' };
  return undefined;
}

/** One model call, streamed: deltas and usage pass on; an error ends the turn (or retries it). */
async function* streamTurn(
  run: Run,
  tools: ReturnType<ToolRegistry['schemas']>,
): AsyncGenerator<RunEvent, TurnEnd> {
  const { deps, opts } = run;
  let end: TurnEnd | undefined;
  // What has arrived, weighed as it comes: a stopped answer's estimate costs nothing at Ctrl+C.
  const arrived: Arrived = { content: new TextTally(), reasoning: new TextTally() };
  for await (const ev of deps.llm.stream({
    model: opts.model,
    messages: run.messages,
    tools,
    thinking: opts.thinking,
    ...(opts.effort ? { effort: opts.effort } : {}),
    signal: run.signal,
    ...(opts.maxTokens ? { maxTokens: opts.maxTokens } : {}),
  })) {
    switch (ev.type) {
      case 'text_delta':
        arrived.content.add(ev.text);
        yield ev;
        break;
      case 'thinking_delta':
        arrived.reasoning.add(ev.text);
        yield ev;
        break;
      case 'retry':
        yield ev;
        break;
      case 'warning':
        yield { type: 'warning', message: streamWarning(ev.code, ev.model) };
        break;
      case 'tool_call_start':
        yield { type: 'tool_call_writing', name: ev.name };
        break;
      case 'done': {
        const cost = deps.usage.add(ev.model || opts.model, ev.usage);
        yield { type: 'usage', model: ev.model || opts.model, usage: ev.usage, cost };
        end = { kind: 'message', final: ev.message, finishReason: ev.finishReason };
        break;
      }
      case 'error': {
        const failed = yield* streamError(run, ev, tools, arrived);
        // A retry lets the stream run out; any other failure ends the turn at once.
        if (failed.kind !== 'retry') return failed;
        end = failed;
        break;
      }
      default:
        exhaustive(ev);
    }
  }
  if (end) return end;
  const error = describeApiError(
    { kind: 'network', message: 'no response', retryable: false },
    deps.usage.platform,
  );
  yield { type: 'error', error };
  return { kind: 'stop', stop: 'error', error };
}

type StreamErrorEvent = Extract<StreamEvent, { type: 'error' }>;
/** The answer and reasoning of the current call, weighed as they streamed. */
type Arrived = { content: TextTally; reasoning: TextTally };

/** A failed model call: counted, shrunk and retried once on a context overflow, else the run ends. */
async function* streamError(
  run: Run,
  ev: StreamErrorEvent,
  tools: ReturnType<ToolRegistry['schemas']>,
  arrived: Arrived,
): AsyncGenerator<RunEvent, TurnEnd> {
  const { deps, opts, messages, result } = run;
  // An answer stopped with Ctrl+C never gets the usage of its last chunk, but was billed:
  // count it by estimate, so `zhi usage` and the session see what it cost.
  const usage =
    ev.usage ??
    (ev.error.kind === 'aborted' ? abortedUsage(messages, tools, ev.partial, arrived) : undefined);
  if (usage) {
    const cost = deps.usage.add(opts.model, usage);
    yield { type: 'usage', model: opts.model, usage, cost };
  }
  if (ev.error.kind === 'context_overflow' && !run.overflowRetried && deps.onContextOverflow) {
    run.overflowRetried = true;
    // Shrink the conversation and ask once more (an answer cut off by the window is asked for again).
    if (await deps.onContextOverflow(messages, run.signal)) {
      result.turns -= 1;
      return { kind: 'retry' };
    }
  }
  // Keep what was already said: a partial answer stays in the conversation.
  if (ev.partial.content) {
    const kept: AssistantMessage = { role: 'assistant', content: ev.partial.content };
    messages.push(kept);
    yield { type: 'message', message: kept };
    result.text = ev.partial.content;
  }
  if (ev.error.kind === 'aborted') return { kind: 'stop', stop: 'aborted' };
  const error = describeApiError(ev.error, deps.usage.platform, run.opts.model);
  yield { type: 'error', error };
  return { kind: 'stop', stop: 'error', error };
}

/** Everything the person has written in the conversation, for tools offered on demand. */
function userText(messages: Message[]): string {
  let text = '';
  for (const m of messages) {
    if (m.role !== 'user') continue;
    text +=
      typeof m.content === 'string'
        ? m.content
        : m.content.map((p) => (p.type === 'text' ? p.text : '')).join(' ');
    text += '\n';
  }
  return text;
}

const WARNING_KEYS = {
  stream_repaired: 'llm.warn.streamRepaired',
  stream_damaged: 'llm.warn.streamDamaged',
  thinking_forced: 'llm.warn.thinkingForced',
  unknown_model: 'llm.warn.unknownModel',
} as const;

function streamWarning(code: StreamWarningCode, model: string): string {
  return t(WARNING_KEYS[code], { model });
}

/**
 * The estimated usage of a request stopped while the answer streamed: the prompt as sent and the
 * text that arrived. Nothing when nothing arrived (the request may not have reached the model).
 */
function abortedUsage(
  messages: readonly Message[],
  tools: ReturnType<ToolRegistry['schemas']>,
  partial: AssistantMessage,
  arrived: Arrived,
): Usage | undefined {
  const content = partial.content ?? '';
  const reasoning = partial.reasoning_content ?? '';
  if (!content && !reasoning) return undefined;
  const promptTokens = estimateMessagesTokens(messages) + estimateToolsTokens(tools);
  // The tallies are of the deltas; the partial message is their sum (read again if it is not).
  const weigh = (text: string, tally: TextTally) =>
    tally.length === text.length ? tally.tokens : estimateTextTokens(text);
  const reasoningTokens = weigh(reasoning, arrived.reasoning);
  const completionTokens = weigh(content, arrived.content) + reasoningTokens;
  return {
    promptTokens,
    completionTokens,
    totalTokens: promptTokens + completionTokens,
    cachedTokens: 0,
    reasoningTokens,
  };
}
