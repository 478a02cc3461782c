/**
 * Issue 45: one LibreOffice start per run, not one per legacy file. A stand-in for soffice (a
 * script that logs each start and "converts" by copying) shows how conversions are grouped: the
 * ones asked together or while a call runs share the next call, a folder's files handed over
 * ahead share one, a slow file is stopped alone, Ctrl+C stops the call and nothing is left.
 */
import { chmodSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  convertWithSoffice,
  dropPrefetched,
  endConversions,
  prefetchConversions,
} from '../../src/tools/files/readers/soffice.js';
import { limits } from '../../src/tools/files/readers/soffice-batch.js';
import { SOFFICE_PREFIX } from '../../src/tools/files/readers/soffice-leftovers.js';
import { stretched } from '../helpers/slowdown.js';
import { cleanup, pollUntil, tempDir } from '../helpers/zhi.js';

let dir: string;
let log: string;
const saved = { env: process.env.ZHI_SOFFICE, ms: limits.fileMs };

/** Each start appends its pid and file count; a file holding "SLOW" hangs it, "GATE" waits for a file. */
const FAKE = String.raw`
const fs = require('node:fs'), path = require('node:path');
const args = process.argv.slice(2);
const out = args[args.indexOf('--outdir') + 1], to = args[args.indexOf('--convert-to') + 1];
const inputs = args.filter((a) => a.includes('input-'));
fs.appendFileSync(process.env.FAKE_LOG, process.pid + ' ' + inputs.length + '\n');
(async () => {
  for (const f of inputs) {
    const text = fs.readFileSync(f, 'utf8');
    if (text.startsWith('SLOW')) await new Promise(() => setInterval(() => {}, 1000));
    while (text.startsWith('GATE') && !fs.existsSync(process.env.FAKE_LOG + '.open')) await new Promise((r) => setTimeout(r, 20));
    fs.writeFileSync(path.join(out, path.basename(f).replace(/\.[^.]+$/, '.' + to)), 'converted ' + text);
    console.log('convert ' + f);
  }
})();
`;

beforeAll(() => {
  dir = tempDir('zhi-fake-soffice-');
  log = join(dir, 'starts.log');
  writeFileSync(join(dir, 'fake.cjs'), FAKE);
  const bin = join(dir, 'soffice');
  writeFileSync(bin, `#!/bin/sh\nexec "${process.execPath}" "${join(dir, 'fake.cjs')}" "$@"\n`);
  chmodSync(bin, 0o755);
  process.env.ZHI_SOFFICE = bin;
  process.env.FAKE_LOG = log;
});
beforeEach(() => {
  writeFileSync(log, '');
  rmSync(`${log}.open`, { force: true });
});
afterAll(() => {
  endConversions();
  if (saved.env === undefined) delete process.env.ZHI_SOFFICE;
  else process.env.ZHI_SOFFICE = saved.env;
  limits.fileMs = saved.ms;
  cleanup(dir);
});

const starts = () =>
  readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => Number(l.split(' ')[1]));
const convert = (text: string, signal?: AbortSignal) =>
  convertWithSoffice(Buffer.from(text), '.doc', 'docx', signal).then((b) => b.toString());
/** This zhi's conversion folders still in the temp folder (the profile is kept for the run). */
const leftovers = () =>
  readdirSync(tmpdir()).filter((n) => n.startsWith(SOFFICE_PREFIX) && !n.includes('profile'));

describe.runIf(process.platform !== 'win32')('LibreOffice conversions in batches', () => {
  it('conversions asked together share one LibreOffice call, each gets its own result', async () => {
    const texts = ['a', 'b', 'c', 'd', 'e'];
    expect(await Promise.all(texts.map((t) => convert(t)))).toEqual(texts.map((t) => `converted ${t}`));
    expect(starts()).toEqual([5]);
    expect(leftovers()).toEqual([]);
  });

  it('conversions asked while a call runs wait and go together into the next one', async () => {
    const first = convert('GATE');
    await pollUntil(() => starts().length === 1);
    const later = ['x', 'y', 'z'].map((t) => convert(t));
    writeFileSync(`${log}.open`, '');
    expect(await first).toBe('converted GATE');
    expect(await Promise.all(later)).toEqual(['converted x', 'converted y', 'converted z']);
    expect(starts()).toEqual([1, 3]);
  });

  it('files handed over ahead are converted in one call and taken by their reading', async () => {
    const files = ['p', 'q', 'r'].map((t) => ({ data: Buffer.from(t), fromExt: '.doc', toExt: 'docx' }));
    prefetchConversions(files);
    for (const t of ['p', 'q', 'r']) expect(await convert(t)).toBe(`converted ${t}`);
    expect(starts()).toEqual([3]);
    dropPrefetched();
  });

  it('the same file read again (its next page) takes the conversion already made', async () => {
    expect(await convert('page')).toBe('converted page');
    expect(await convert('page')).toBe('converted page');
    expect(starts()).toEqual([1]);
  });

  it('one reader stopped does not stop the conversion another reader of the same file waits for', async () => {
    const stop = new AbortController();
    const first = convert('GATE shared', stop.signal);
    const second = convert('GATE shared');
    await pollUntil(() => starts().length === 1);
    stop.abort();
    await expect(first).rejects.toThrow('Interrupted.');
    writeFileSync(`${log}.open`, '');
    expect(await second).toBe('converted GATE shared');
  });

  it('a file that hangs LibreOffice is stopped alone: the ones before keep their result, the ones after get another call', async () => {
    // A real deadline (a fake LibreOffice started per call): stretched under load like every ceiling.
    limits.fileMs = stretched(400);
    try {
      const results = await Promise.allSettled(['one', 'SLOW', 'three'].map((t) => convert(t)));
      expect(results[0]).toEqual({ status: 'fulfilled', value: 'converted one' });
      expect(results[1]).toMatchObject({
        status: 'rejected',
        reason: { message: 'LibreOffice took too long' },
      });
      expect(results[2]).toEqual({ status: 'fulfilled', value: 'converted three' });
      expect(starts()).toEqual([3, 1]);
      expect(leftovers()).toEqual([]);
    } finally {
      limits.fileMs = saved.ms;
    }
  });

  it('Ctrl+C stops the call: the reading is interrupted, LibreOffice killed, the copy removed', async () => {
    const stop = new AbortController();
    const reading = convert('SLOW again', stop.signal);
    await pollUntil(() => starts().length === 1);
    const pid = Number(readFileSync(log, 'utf8').split(' ')[0]);
    stop.abort();
    await expect(reading).rejects.toThrow('Interrupted.');
    await pollUntil(() => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    });
    await pollUntil(() => leftovers().length === 0);
  });
});
