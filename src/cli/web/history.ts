/** A conversation's messages as the page draws them (the `items` of GET /api/conversations/:id). */
import { messageText } from '../../agent/sessions/format.js';
import type { Message } from '../../llm/types.js';
import { oneLine } from '../../support/graphemes.js';
import { toolTitle } from '../render/tool-names.js';

export type HistoryItem =
  | { role: 'user'; text: string; attachments?: string[] }
  | { role: 'assistant'; text: string; thinking?: string }
  | { role: 'tool'; name: string; label: string; ok: boolean; summary: string };

const SUMMARY_CHARS = 200;

/** The items of a context (the system prompt is left out; tool results are summed up in a line). */
export function historyItems(messages: readonly Message[]): HistoryItem[] {
  const items: HistoryItem[] = [];
  const names = new Map<string, string>();
  for (const m of messages) {
    if (m.role === 'system') continue;
    if (m.role === 'user') items.push(userItem(messageText(m)));
    else if (m.role === 'assistant') {
      for (const call of m.tool_calls ?? []) names.set(call.id, call.function.name);
      if (m.content || m.reasoning_content)
        items.push({
          role: 'assistant',
          text: m.content,
          ...(m.reasoning_content ? { thinking: m.reasoning_content } : {}),
        });
    } else {
      const name = names.get(m.tool_call_id) ?? '';
      const summary = oneLine(m.content).slice(0, SUMMARY_CHARS);
      // What the model was told of a failure starts so (agent/tool-calls.ts words them in English).
      const ok = !/^(error|refused|denied|interrupted)\b/i.test(m.content.trim());
      items.push({ role: 'tool', name, label: toolTitle(name), ok, summary });
    }
  }
  return items;
}

/** Attached documents follow the person's words as `<document name="…">` blocks (attach.ts). */
const DOCUMENT = /\n\n<document name="([^"]*)" path="[^"]*">/g;

/** What the person typed, and the names of the files they attached (not the files' text). */
function userItem(text: string): HistoryItem {
  const names = [...text.matchAll(DOCUMENT)].map((m) => m[1]!);
  if (!names.length) return { role: 'user', text };
  return { role: 'user', text: text.slice(0, text.search(DOCUMENT)), attachments: names };
}
