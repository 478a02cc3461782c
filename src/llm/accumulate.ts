import type { AssistantMessage, ToolCall } from './types.js';

/** The fields of a streamed tool-call delta we rely on (reference §4.3). */
export interface ToolCallDelta {
  index?: number;
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: string };
}

/**
 * Builds the assistant message from stream deltas. Tool calls are keyed by `index`: a whole call
 * may arrive in one chunk, or arguments may come in fragments; `id`/`name` may be repeated on
 * later fragments (kept, not appended), and a last fragment may ride in the finishing chunk.
 */
export class MessageAccumulator {
  private content = '';
  private reasoning = '';
  private readonly calls = new Map<number, ToolCall>();
  private readonly idGiven = new Set<number>();

  addContent(text: string): void {
    this.content += text;
  }

  addReasoning(text: string): void {
    this.reasoning += text;
  }

  /** Returns the call when this delta is the first one seen for its index. */
  addToolCall(delta: ToolCallDelta, position: number): { started?: ToolCall } {
    const index = typeof delta.index === 'number' ? delta.index : position;
    const existing = this.calls.get(index);
    const name = delta.function?.name ?? '';
    const args = delta.function?.arguments ?? '';
    if (!existing) {
      const call: ToolCall = {
        id: delta.id || `call_${index}`,
        type: 'function',
        function: { name, arguments: args },
      };
      this.calls.set(index, call);
      if (delta.id) this.idGiven.add(index);
      return { started: call };
    }
    // id and name may be repeated on later fragments: keep the first, fill one that was missing.
    if (delta.id && !this.idGiven.has(index)) {
      existing.id = delta.id;
      this.idGiven.add(index);
    }
    if (name && !existing.function.name) existing.function.name = name;
    existing.function.arguments += args;
    return {};
  }

  message(): AssistantMessage {
    const msg: AssistantMessage = { role: 'assistant', content: this.content };
    if (this.reasoning) msg.reasoning_content = this.reasoning;
    const calls = [...this.calls.entries()].sort((a, b) => a[0] - b[0]).map(([, c]) => c);
    if (calls.length) msg.tool_calls = calls;
    return msg;
  }

  /** Characters received so far: content, reasoning and tool-call arguments. */
  size(): number {
    let n = this.content.length + this.reasoning.length;
    for (const c of this.calls.values()) n += c.function.arguments.length;
    return n;
  }

  hasOutput(): boolean {
    return this.content.length > 0 || this.reasoning.length > 0 || this.calls.size > 0;
  }
}
