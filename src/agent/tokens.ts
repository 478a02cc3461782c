import type { Message, ToolSchema } from '../llm/types.js';

/**
 * A token estimate that needs no tokenizer, tuned to err on the high side (compaction should
 * start a little early, never too late):
 *
 * - CJK characters (Han, kana, Hangul, CJK punctuation, full-width forms): about 1 token each.
 *   GLM's tokenizer packs common Chinese into ~0.7 tokens per character; 1 is the safe side.
 * - ASCII (Latin letters, digits, spaces, punctuation): about 4 characters per token.
 * - Other characters (accented Latin, Cyrillic, symbols, emoji): about 2 characters per token.
 * - Each message costs 4 tokens of framing; an image part is counted as 1,500 tokens.
 *
 * The server's reported prompt_tokens, when known, is preferred to this estimate (see compact.ts).
 */
export function estimateTextTokens(text: string): number {
  let ascii = 0;
  let cjk = 0;
  let other = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80) ascii += 1;
    else if (isCjk(cp)) cjk += 1;
    else other += 1;
  }
  return Math.ceil(ascii / 4 + cjk + other / 2);
}

function isCjk(cp: number): boolean {
  return (
    (cp >= 0x2e80 && cp <= 0x9fff) || // radicals, CJK symbols & punctuation, kana, Han
    (cp >= 0xac00 && cp <= 0xd7af) || // Hangul syllables
    (cp >= 0xf900 && cp <= 0xfaff) || // compatibility ideographs
    (cp >= 0xfe30 && cp <= 0xfe4f) || // compatibility forms
    (cp >= 0xff00 && cp <= 0xffef) || // full-width forms
    (cp >= 0x20000 && cp <= 0x3134f) // extension B and later
  );
}

export const MESSAGE_OVERHEAD_TOKENS = 4;
export const IMAGE_TOKENS = 1500;

export function estimateMessageTokens(m: Message): number {
  let n = MESSAGE_OVERHEAD_TOKENS;
  if (typeof m.content === 'string') n += estimateTextTokens(m.content);
  else {
    for (const part of m.content) n += part.type === 'text' ? estimateTextTokens(part.text) : IMAGE_TOKENS;
  }
  if (m.role === 'assistant') {
    if (m.reasoning_content) n += estimateTextTokens(m.reasoning_content);
    for (const c of m.tool_calls ?? [])
      n += 8 + estimateTextTokens(c.function.name) + estimateTextTokens(c.function.arguments);
  }
  return n;
}

export function estimateMessagesTokens(messages: readonly Message[]): number {
  let n = 0;
  for (const m of messages) n += estimateMessageTokens(m);
  return n;
}

export function estimateToolsTokens(tools: readonly ToolSchema[]): number {
  return tools.length ? estimateTextTokens(JSON.stringify(tools)) : 0;
}
