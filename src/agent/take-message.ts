/**
 * How a model's message joins a run's conversation: the answer (or the tool calls it asks for)
 * is kept, and tool calls of a reply cut at the output limit are answered without running.
 */
import type { AssistantMessage, Message, ToolCall, ToolMessage } from '../llm/types.js';
import { t } from '../support/i18n/index.js';
import type { AgentResult, RunEvent } from './events.js';

/** The part of a run these steps change: its messages and its result. */
interface Conversation {
  messages: Message[];
  result: AgentResult;
}

/** The model's message joins the conversation; the tool calls it asks for (none: the answer). */
export async function* takeMessage(
  run: Conversation,
  final: AssistantMessage,
  finishReason: string | undefined,
): AsyncGenerator<RunEvent, ToolCall[]> {
  const calls = final.tool_calls ?? [];
  if (!final.content && !calls.length) {
    // An empty answer would be rejected by the API if sent back (1214); keep the history valid.
    final.content = ' ';
  }
  run.messages.push(final);
  yield { type: 'message', message: final };
  if (calls.length) return calls;
  run.result.text = final.content.trim() ? final.content : '';
  if (finishReason === 'length') {
    run.result.truncated = true;
    yield { type: 'warning', message: t('cli.lengthCut') };
  }
  return calls;
}

/**
 * Tool calls of a reply that hit the output limit: the last one's arguments are cut, and any of
 * them may depend on it, so none runs. The model is told why and tries again; the person is
 * told in their language. (Relying on the cut JSON failing to parse would run a call whose
 * arguments happen to parse, such as a file's content cut mid-way.)
 */
export async function* refuseCutOffCalls(run: Conversation, calls: ToolCall[]): AsyncGenerator<RunEvent> {
  yield { type: 'warning', message: t('agent.cutOffCalls', { n: calls.length }) };
  for (const call of calls) {
    const message: ToolMessage = { role: 'tool', tool_call_id: call.id, content: t('agent.tool.cutOff') };
    run.messages.push(message);
    yield { type: 'message', message };
  }
}
