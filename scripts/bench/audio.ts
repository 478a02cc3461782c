/**
 * A long recording transcribed through `zhi -c "summarise rec.wav" --yes` against the fake API:
 * zhi's peak memory for an hour of 16 kHz mono WAV (110 MB, 129 requests) against a quarter of an
 * hour, and the requests it makes. Issue 45 found an hour held whole, pieces and all (315 MB): the
 * pieces are now read from the file one at a time, so memory does not grow with the recording
 * (a quarter of an hour is the floor, not a minute: the garbage collector lets the piece buffers
 * pile up to a plateau of about 190 MB within the first minutes, then holds it — 208 MB for two hours).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeZhipu } from '../../test/fake-zhipu/server.js';
import type { BenchOptions, Row } from './lib/row.js';
import { timed } from './longdoc.js';

const RATE = 16000;

/** `seconds` of a 440 Hz tone as 16 kHz mono 16-bit WAV (what ffmpeg makes of any recording). */
function wav(seconds: number): Buffer {
  const frames = seconds * RATE;
  const buf = Buffer.alloc(44 + frames * 2);
  buf.write('RIFF', 0, 'latin1');
  buf.writeUInt32LE(36 + frames * 2, 4);
  buf.write('WAVEfmt ', 8, 'latin1');
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(RATE, 24);
  buf.writeUInt32LE(RATE * 2, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write('data', 36, 'latin1');
  buf.writeUInt32LE(frames * 2, 40);
  for (let i = 0; i < frames; i++)
    buf.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / RATE) * 8000), 44 + i * 2);
  return buf;
}

async function once(fake: FakeZhipu, seconds: number): Promise<{ rss: number; requests: number }> {
  const work = mkdtempSync(join(tmpdir(), 'zhi-bench-audio-'));
  try {
    writeFileSync(join(work, 'rec.wav'), wav(seconds));
    fake.requests.length = 0;
    const rss = await timed(['-c', 'summarise rec.wav', '--yes'], work, fake.baseUrl);
    const requests = fake.requests.filter((r) => r.path.endsWith('/audio/transcriptions')).length;
    return { rss, requests };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export async function measure(o: BenchOptions): Promise<Row[]> {
  const fake = new FakeZhipu();
  await fake.start();
  fake.fallback = () => ({ kind: 'text', text: 'A summary.' });
  const minutes = o.quick ? 10 : 60;
  try {
    const small = await once(fake, (minutes / 4) * 60);
    const big = await once(fake, minutes * 60);
    return [
      {
        name: `peak memory transcribing a ${minutes}-minute recording`,
        value: big.rss,
        unit: 'MB',
        floor: { name: `a ${minutes / 4}-minute recording`, value: small.rss },
        maxRatio: 1.25,
        note: `16 kHz mono WAV, ${((minutes * 60 * RATE * 2) / 1024 / 1024).toFixed(0)} MB, sent as ${big.requests} requests (${Math.ceil((minutes * 60) / 28)} expected: 28 s each); 315 MB for an hour before pieces were read one at a time`,
      },
    ];
  } finally {
    await fake.stop();
  }
}
