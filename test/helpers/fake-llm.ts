/** A scripted LlmClient for agent-loop unit tests: each call consumes one scripted turn. */
import type {
  AssistantMessage,
  ChatRequest,
  LlmClient,
  StreamEvent,
  ToolCall,
  Usage,
} from '../../src/llm/types.js';

export type Turn =
  | { text: string; reasoning?: string; usage?: Partial<Usage> }
  | { calls: { name: string; args: unknown; id?: string }[]; text?: string }
  | { error: StreamEvent & { type: 'error' } }
  | ((req: ChatRequest) => AsyncIterable<StreamEvent>);

const usage = (u: Partial<Usage> = {}): Usage => ({
  promptTokens: 10,
  completionTokens: 5,
  totalTokens: 15,
  cachedTokens: 0,
  reasoningTokens: 0,
  ...u,
});

export class ScriptedLlm implements LlmClient {
  readonly requests: ChatRequest[] = [];
  private n = 0;

  constructor(private readonly turns: Turn[]) {}

  async *stream(req: ChatRequest): AsyncGenerator<StreamEvent> {
    // Snapshot the messages: the loop mutates the array after the call.
    this.requests.push({ ...req, messages: structuredClone(req.messages) });
    const turn = this.turns[this.n++];
    if (!turn) throw new Error(`ScriptedLlm: no turn ${this.n}`);
    if (typeof turn === 'function') {
      yield* turn(req);
      return;
    }
    if ('error' in turn) {
      yield turn.error;
      return;
    }
    if ('calls' in turn) {
      const calls: ToolCall[] = turn.calls.map((c, i) => ({
        id: c.id ?? `call_${this.n}_${i}`,
        type: 'function',
        function: { name: c.name, arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args) },
      }));
      if (turn.text) yield { type: 'text_delta', text: turn.text };
      const message: AssistantMessage = { role: 'assistant', content: turn.text ?? '', tool_calls: calls };
      yield { type: 'done', message, finishReason: 'tool_calls', usage: usage(), model: req.model };
      return;
    }
    if (turn.reasoning) yield { type: 'thinking_delta', text: turn.reasoning };
    yield { type: 'text_delta', text: turn.text };
    const message: AssistantMessage = {
      role: 'assistant',
      content: turn.text,
      ...(turn.reasoning ? { reasoning_content: turn.reasoning } : {}),
    };
    yield { type: 'done', message, finishReason: 'stop', usage: usage(turn.usage), model: req.model };
  }
}
