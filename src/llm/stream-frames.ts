/**
 * Turns the `data:` payloads of an SSE chat stream into client events, frame by frame: text and
 * reasoning deltas (box markers removed), tool-call starts, usage, the finish reason, an in-stream
 * error. A payload that is not JSON is repaired where it can be (stream-repair.ts) and reported.
 */
import { log } from '../support/log.js';
import type { MessageAccumulator } from './accumulate.js';
import type { ChunkJson } from './chunk.js';
import { classifyHttpError } from './errors.js';
import { BoxMarkerFilter, repairLine } from './stream-repair.js';
import type { ApiErrorInfo, StreamEvent, Usage } from './types.js';
import { parseUsage } from './usage-parse.js';

export class StreamFrames {
  readonly pending: StreamEvent[] = [];
  finishReason: string | undefined;
  usage: Usage | undefined;
  serverModel: string;
  sawDone = false;
  error: ApiErrorInfo | undefined;
  private toolPosition = 0;
  private readonly box = new BoxMarkerFilter();

  constructor(
    private readonly acc: MessageAccumulator,
    model: string,
  ) {
    this.serverModel = model;
  }

  get finished(): boolean {
    return this.sawDone || this.error !== undefined;
  }

  onData(raw: string): void {
    if (this.finished) return;
    const data = raw.trim();
    if (data === '[DONE]') {
      this.sawDone = true;
      return;
    }
    let json: ChunkJson;
    try {
      json = JSON.parse(data) as ChunkJson;
    } catch {
      this.repair(data);
      return;
    }
    this.onFrame(json);
  }

  /** Text held back by the box-marker filter, at the end of the stream. */
  flushText(): void {
    const rest = this.box.flush();
    if (rest) this.addText(rest);
  }

  private repair(data: string): void {
    const fixed = repairLine<ChunkJson>(data);
    log().warn('repairing a damaged SSE line', { data: data.slice(0, 300), damaged: fixed.damaged });
    for (const s of fixed.salvaged) {
      if (s.field === 'content') this.addText(s.text);
      else this.addReasoning(s.text);
    }
    const lost = fixed.damaged > 0 && fixed.salvaged.length === 0 && fixed.frames.length === 0;
    this.pending.push({
      type: 'warning',
      code: lost || fixed.frames.length === 0 ? 'stream_damaged' : 'stream_repaired',
      model: this.serverModel,
    });
    for (const frame of fixed.frames) this.onFrame(frame);
  }

  private onFrame(json: ChunkJson): void {
    if (this.finished) return;
    if (json.error) {
      this.error = classifyHttpError(200, JSON.stringify(json));
      return;
    }
    if (json.model) this.serverModel = json.model;
    if (json.usage) this.usage = parseUsage(json.usage);
    const choice = json.choices?.[0];
    const delta = choice?.delta;
    if (delta?.reasoning_content) this.addReasoning(delta.reasoning_content);
    if (delta?.content) {
      const text = this.box.push(delta.content);
      if (text) this.addText(text);
    }
    for (const tc of delta?.tool_calls ?? []) {
      const { started } = this.acc.addToolCall(tc, this.toolPosition++);
      if (started) {
        this.pending.push({
          type: 'tool_call_start',
          index: typeof tc.index === 'number' ? tc.index : this.toolPosition - 1,
          id: started.id,
          name: started.function.name,
        });
      }
    }
    if (choice?.finish_reason) {
      this.flushText();
      this.finishReason = choice.finish_reason;
    }
  }

  private addText(text: string): void {
    this.acc.addContent(text);
    this.pending.push({ type: 'text_delta', text });
  }

  private addReasoning(text: string): void {
    this.acc.addReasoning(text);
    this.pending.push({ type: 'thinking_delta', text });
  }
}
