/**
 * Reading a chat completion response: a whole JSON body, or an SSE stream, into the client's
 * events. Multi-byte characters split across network reads are decoded intact (TextDecoder in
 * stream mode); frames are parsed by eventsource-parser; finish reasons are mapped explicitly.
 */
import { createParser } from 'eventsource-parser';
import type { MessageAccumulator } from './accumulate.js';
import type { ChunkJson } from './chunk.js';
import { classifyHttpError, networkError } from './errors.js';
import { StreamFrames } from './stream-frames.js';
import { BoxMarkerFilter } from './stream-repair.js';
import type { ApiErrorInfo, FinishReason, StreamEvent, Usage } from './types.js';
import { ZERO_USAGE } from './types.js';
import { parseUsage } from './usage-parse.js';

export type { ChunkJson } from './chunk.js';

const FINISH_REASONS = new Set<FinishReason>([
  'stop',
  'tool_calls',
  'length',
  'sensitive',
  'network_error',
  'model_context_window_exceeded',
]);

function mapFinish(reason: string): FinishReason {
  return FINISH_REASONS.has(reason as FinishReason) ? (reason as FinishReason) : 'unknown';
}

export function* readWhole(json: ChunkJson, acc: MessageAccumulator, model: string): Generator<StreamEvent> {
  if (json.error) {
    yield { type: 'error', error: classifyHttpError(200, JSON.stringify(json)), partial: acc.message() };
    return;
  }
  const choice = json.choices?.[0];
  const msg = choice?.message ?? choice?.delta;
  if (msg?.reasoning_content) {
    acc.addReasoning(msg.reasoning_content);
    yield { type: 'thinking_delta', text: msg.reasoning_content };
  }
  const content = msg?.content ? stripBoxMarkers(msg.content) : '';
  if (content) {
    acc.addContent(content);
    yield { type: 'text_delta', text: content };
  }
  for (const [i, tc] of (msg?.tool_calls ?? []).entries()) acc.addToolCall(tc, i);
  yield* finishEvents(choice?.finish_reason ?? 'stop', acc, parseUsage(json.usage), json.model ?? model);
}

/** Vision models wrap answers in `<|begin_of_box|>…<|end_of_box|>`: never show them. */
export function stripBoxMarkers(text: string): string {
  const f = new BoxMarkerFilter();
  return f.push(text) + f.flush();
}

export function* finishEvents(
  reason: string,
  acc: MessageAccumulator,
  usage: Usage,
  model: string,
): Generator<StreamEvent> {
  const finishReason = mapFinish(reason);
  const partial = acc.message();
  if (finishReason === 'sensitive') {
    yield {
      type: 'error',
      error: { kind: 'content_filter', code: 'sensitive', message: 'content filter', retryable: false },
      partial,
      usage,
    };
  } else if (finishReason === 'network_error') {
    yield {
      type: 'error',
      error: {
        kind: 'network',
        code: 'server_stopped',
        message: 'the server stopped generating (finish_reason network_error)',
        retryable: true,
      },
      partial,
      usage,
    };
  } else if (finishReason === 'model_context_window_exceeded') {
    yield {
      type: 'error',
      error: {
        kind: 'context_overflow',
        code: finishReason,
        message: 'context window exceeded',
        retryable: false,
      },
      partial,
      usage,
    };
  } else {
    yield { type: 'done', message: partial, finishReason, usage, model };
  }
}

/**
 * Bytes of one SSE event (its lines up to the blank line that ends it). A chat frame is a few
 * hundred bytes; a line that never ends would otherwise grow the parser's buffer without bound.
 */
export const MAX_FRAME_BYTES = 8 * 1024 * 1024;

/** Caps on one streamed answer: a model that streams forever is stopped (issue 23 point 6). */
export interface StreamLimits {
  /** Characters of content, reasoning and tool arguments together. */
  maxChars: number;
  /** Time from the first byte of the answer to its end. */
  maxMs: number;
  /** Bytes of one event (MAX_FRAME_BYTES unless a test says less). */
  maxFrameBytes?: number;
}

function frameTooLong(limit: number): ApiErrorInfo {
  return {
    kind: 'server',
    code: 'frame_too_long',
    message: `one event of the stream passed ${limit} bytes without ending`,
    retryable: false,
  };
}

/** The answer went past a cap: what arrived is kept, the rest is not waited for. */
function overLimit(acc: MessageAccumulator, limits: StreamLimits, started: number): ApiErrorInfo | undefined {
  if (acc.size() > limits.maxChars)
    return {
      kind: 'server',
      code: 'answer_too_long',
      message: `the answer passed ${limits.maxChars} characters`,
      retryable: false,
    };
  if (Date.now() - started > limits.maxMs)
    return {
      kind: 'server',
      code: 'answer_too_slow',
      message: `the answer was still streaming after ${Math.round(limits.maxMs / 1000)} s`,
      retryable: false,
    };
  return undefined;
}

export async function* readStream(
  body: ReadableStream<Uint8Array>,
  acc: MessageAccumulator,
  model: string,
  arm: () => void,
  interrupted: (err: unknown) => ApiErrorInfo,
  limits: StreamLimits,
): AsyncGenerator<StreamEvent> {
  const started = Date.now();
  const frames = new StreamFrames(acc, model);
  // Bytes since the last complete event: the parser holds them until the event ends.
  let sinceEvent = 0;
  const maxFrame = limits.maxFrameBytes ?? MAX_FRAME_BYTES;
  const parser = createParser({
    onEvent: (event) => {
      sinceEvent = 0;
      frames.onData(event.data);
    },
  });
  const reader = body.getReader();
  const decoder = new TextDecoder('utf-8');
  try {
    while (!frames.finished) {
      let chunk: { done: boolean; value?: Uint8Array };
      try {
        chunk = await reader.read();
      } catch (err) {
        yield* frames.pending.splice(0);
        const error = interrupted(err);
        // A drop after the answer began is not "could not connect": say it was cut, and whether
        // anything had arrived (then it is shown above; else there is nothing to point to).
        if (error.kind === 'network') error.code = arrived(acc) ? 'stream_cut' : 'stream_cut_empty';
        yield { type: 'error', error, partial: acc.message(), ...usageOf(frames) };
        return;
      }
      if (chunk.done) break;
      arm();
      sinceEvent += chunk.value?.length ?? 0;
      // stream: true keeps a multi-byte character split across reads until its last byte comes.
      parser.feed(decoder.decode(chunk.value, { stream: true }));
      yield* frames.pending.splice(0);
      const over = sinceEvent > maxFrame ? frameTooLong(maxFrame) : overLimit(acc, limits, started);
      if (over) {
        yield { type: 'error', error: over, partial: acc.message(), ...usageOf(frames) };
        return;
      }
    }
    parser.feed(decoder.decode());
    parser.feed('\n\n');
    frames.flushText();
    yield* frames.pending.splice(0);
  } finally {
    reader.cancel().catch(() => {});
  }

  if (frames.error) {
    yield { type: 'error', error: frames.error, partial: acc.message(), ...usageOf(frames) };
    return;
  }
  if (!frames.finishReason) {
    yield {
      type: 'error',
      error: {
        ...networkError('the stream ended before the answer was complete'),
        code: arrived(acc) ? 'stream_cut' : 'stream_cut_empty',
      },
      partial: acc.message(),
      ...usageOf(frames),
    };
    return;
  }
  yield* finishEvents(frames.finishReason, acc, frames.usage ?? { ...ZERO_USAGE }, frames.serverModel);
}

function usageOf(frames: StreamFrames): { usage?: Usage } {
  return frames.usage ? { usage: frames.usage } : {};
}

/** Did any of the answer arrive (text, thinking or a tool call)? */
function arrived(acc: MessageAccumulator): boolean {
  const m = acc.message();
  return Boolean(m.content || m.reasoning_content || m.tool_calls?.length);
}
