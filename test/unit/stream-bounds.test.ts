/**
 * Every stream bounded: one SSE event that never ends, and a whole body past its cap, stop with a
 * clear failure instead of growing zhi's memory.
 */
import { describe, expect, it } from 'vitest';
import { MessageAccumulator } from '../../src/llm/accumulate.js';
import { BodyTooLarge, readBytesCapped, readTextCapped } from '../../src/llm/body.js';
import { readStream } from '../../src/llm/response.js';
import type { StreamEvent } from '../../src/llm/types.js';

/** A body of `pieces`, then (with `forever`) the last piece again and again. */
function body(pieces: string[], forever = false): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  let i = 0;
  return new ReadableStream({
    pull(c) {
      if (i < pieces.length) c.enqueue(enc.encode(pieces[i++]!));
      else if (forever) c.enqueue(enc.encode(pieces[pieces.length - 1]!));
      else c.close();
    },
  });
}

async function events(stream: ReadableStream<Uint8Array>, maxFrameBytes: number): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  const limits = { maxChars: 10_000_000, maxMs: 60_000, maxFrameBytes };
  const interrupted = () => ({ kind: 'network' as const, message: 'x', retryable: false });
  for await (const ev of readStream(stream, new MessageAccumulator(), 'glm', () => {}, interrupted, limits)) {
    out.push(ev);
  }
  return out;
}

const frame = (text: string) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: text } }] })}\n\n`;
const last = (evs: StreamEvent[]) => evs[evs.length - 1]!;

describe('one SSE event that never ends', () => {
  const cases: [string, string[], boolean, string | undefined][] = [
    [
      'a line with no newline, forever',
      ['data: {"choices":[{"delta":{"content":"', 'x'.repeat(4096)],
      true,
      'frame_too_long',
    ],
    ['data lines with no blank line, forever', ['data: {"a":', 'data: 1\n'], true, 'frame_too_long'],
    [
      'many small frames are fine',
      [...Array.from({ length: 2000 }, () => frame('hello ')), 'data: [DONE]\n\n'],
      false,
      'stream_cut',
    ],
  ];
  it.each(cases)('%s', async (_name, pieces, forever, code) => {
    const evs = await events(body(pieces, forever), 64 * 1024);
    const end = last(evs);
    expect(end.type).toBe('error');
    if (end.type === 'error') expect(end.error.code).toBe(code);
  });

  it('keeps the text that came before the endless event', async () => {
    const evs = await events(body([frame('kept'), 'data: "', 'y'.repeat(1000)], true), 64 * 1024);
    expect(evs.some((e) => e.type === 'text_delta' && e.text === 'kept')).toBe(true);
    const end = last(evs);
    expect(end.type === 'error' && end.partial?.content).toBe('kept');
  });
});

describe('a whole body past its cap', () => {
  const res = (pieces: string[], forever = false) => new Response(body(pieces, forever));
  it('throws BodyTooLarge for an endless body', async () => {
    await expect(readBytesCapped(res(['abc'], true), 10_000)).rejects.toBeInstanceOf(BodyTooLarge);
  });
  it('keeps the start when asked to truncate', async () => {
    expect(await readTextCapped(res(['abcdef', 'ghij'], true), 8, { truncate: true })).toBe('abcdefgh');
  });
  it('reads a body under the cap whole', async () => {
    expect(await readTextCapped(res(['你', '好']), 100)).toBe('你好');
  });
});

describe('a stream cut off', () => {
  /** The pieces, then the connection drops. */
  function dropped(pieces: string[]): ReadableStream<Uint8Array> {
    const enc = new TextEncoder();
    let i = 0;
    return new ReadableStream({
      pull(c) {
        if (i < pieces.length) c.enqueue(enc.encode(pieces[i++]!));
        else c.error(new Error('other side closed'));
      },
    });
  }

  it.each([
    ['after some of the answer: it was cut mid-way', [frame('Partial answer')], 'stream_cut'],
    [
      'before any of it (the role only)',
      ['data: {"choices":[{"delta":{"role":"assistant"}}]}\n\n'],
      'stream_cut_empty',
    ],
    ['before anything at all', [], 'stream_cut_empty'],
  ])('%s', async (_name, pieces, code) => {
    const end = last(await events(dropped(pieces as string[]), 64 * 1024));
    expect(end.type).toBe('error');
    if (end.type === 'error') expect(end.error.code).toBe(code);
  });
});
