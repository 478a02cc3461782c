/** Fixtures for the file tools, made in code: a CJK PDF, GBK text, a ToolContext for direct calls. */

import { PLATFORMS } from '../../src/llm/platforms.js';
import { UsageTracker } from '../../src/llm/usage.js';
import type { Question, ToolContext, WrittenFile } from '../../src/tools/types.js';
import { onePagePdf } from './media.js';

/**
 * A PDF whose text uses the non-embedded Chinese font STSong-Light with the predefined character
 * map UniGB-UCS2-H: it has text, but decoding it needs CMap files that zhi does not ship.
 */
export function makeCjkCMapPdf(text: string): Buffer {
  const hex = Buffer.from(text, 'utf16le').swap16().toString('hex');
  const stream = `BT /F1 18 Tf 72 720 Td <${hex}> Tj ET`;
  return onePagePdf({
    font: '<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light /Encoding /UniGB-UCS2-H /DescendantFonts [6 0 R] >>',
    stream,
    extra: [
      '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /STSong-Light /CIDSystemInfo << /Registry (Adobe) /Ordering (GB1) /Supplement 4 >> /FontDescriptor 7 0 R >>',
      '<< /Type /FontDescriptor /FontName /STSong-Light /Flags 6 /FontBBox [0 -200 1000 900] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 700 /StemV 80 >>',
    ],
  });
}

/** "季度报告：收入 1,234 元" encoded in GBK/GB18030 (the bytes a Chinese Windows editor saves). */
export const GBK_TEXT = '季度报告：收入 1,234 元\n第二行\n';
export const GBK_BYTES = Buffer.from('bcbeb6c8b1a8b8e6a3bacad5c8eb20312c32333420d4aa0ab5dab6fed0d00a', 'hex');

export interface TestContext extends ToolContext {
  files: WrittenFile[];
  questions: Question[];
}

/**
 * A ToolContext for calling a tool directly. `answer` is what the person says to ctx.ask(); any
 * other field given replaces the default (a usage tracker, a progress or usage listener…).
 */
export function toolContext(
  o: { cwd: string; outputDir: string; answer?: boolean } & Partial<ToolContext>,
): TestContext {
  const { answer, ...given } = o;
  const files: WrittenFile[] = [];
  const questions: Question[] = [];
  return {
    signal: new AbortController().signal,
    interactive: false,
    ask: async (q) => {
      questions.push(q);
      return o.interactive ? (answer ?? false) : false;
    },
    recordFile: (f) => files.push(f),
    progress: () => {},
    usage: new UsageTracker(PLATFORMS.bigmodel),
    reportUsage: () => {},
    emit: () => {},
    ...given,
    files,
    questions,
  };
}
