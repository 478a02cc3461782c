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
  const tally = new TextTally();
  tally.add(text);
  return tally.tokens;
}

/**
 * The estimate of a text that arrives in pieces (a streamed answer), kept as it grows: what it
 * comes to is known at any moment without reading the whole text again (Ctrl+C at 100k tokens
 * costs what it costs at 1k). A character split between two pieces counts a little high.
 */
export class TextTally {
  private ascii = 0;
  private cjk = 0;
  private other = 0;
  /** UTF-16 code units added (to check the tally is of the text it is taken for). */
  length = 0;

  add(text: string): void {
    const n = text.length;
    this.length += n;
    for (let i = 0; i < n; i++) {
      let cp = text.charCodeAt(i);
      if (cp < 0x80) {
        this.ascii += 1;
        continue;
      }
      if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < n) {
        const low = text.charCodeAt(i + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
          i += 1;
        }
      }
      if (isCjk(cp)) this.cjk += 1;
      else this.other += 1;
    }
  }

  get tokens(): number {
    return Math.ceil(this.ascii / 4 + this.cjk + this.other / 2);
  }
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
