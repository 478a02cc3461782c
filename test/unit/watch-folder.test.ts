/**
 * `zhi watch`'s eye on a folder: what counts as a file of the folder, when two looks are the
 * same, and whether the run record has seen every file as it is now (a failed file is not tried
 * again until it changes).
 */
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  lookAt,
  nextSettled,
  samePicture,
  somethingNew,
  type WatchOptions,
} from '../../src/agent/folder/watch-folder.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

let dir: string;
beforeEach(() => {
  dir = tempDir('zhi-watch-');
});
afterEach(() => cleanup(dir));

const opts = (o: Partial<WatchOptions> = {}): WatchOptions => ({
  recursive: false,
  skip: [join(dir, 'zhi-output')],
  extensions: ['txt', 'pdf'],
  pollMs: 20,
  settleMs: 20,
  ...o,
});

describe('lookAt', () => {
  it('counts the skill’s kinds of file, not hidden, lock, partial or output files', async () => {
    for (const f of [
      'a.txt',
      'b.PDF',
      'c.png',
      '.hidden.txt',
      '~$a.txt',
      'd.txt.part',
      'zhi-output/x.txt',
      'sub/e.txt',
    ]) {
      mkdirSync(join(dir, f, '..'), { recursive: true });
      writeFileSync(join(dir, f), 'x');
    }
    expect([...(await lookAt(dir, opts())).keys()].sort()).toEqual(['a.txt', 'b.PDF']);
    expect([...(await lookAt(dir, opts({ recursive: true }))).keys()].sort()).toEqual([
      'a.txt',
      'b.PDF',
      'sub/e.txt',
    ]);
  });

  it('sees a change of size or time, and nothing else', async () => {
    writeFileSync(join(dir, 'a.txt'), 'one');
    const before = await lookAt(dir, opts());
    expect(samePicture(before, await lookAt(dir, opts()))).toBe(true);
    writeFileSync(join(dir, 'a.txt'), 'two');
    utimesSync(join(dir, 'a.txt'), new Date(2020, 1, 1), new Date(2020, 1, 1));
    expect(samePicture(before, await lookAt(dir, opts()))).toBe(false);
  });
});

describe('somethingNew', () => {
  it('is false only when the record has every file at its size and time, done or failed', async () => {
    writeFileSync(join(dir, 'a.txt'), 'one');
    writeFileSync(join(dir, 'b.txt'), 'two!');
    const picture = await lookAt(dir, opts());
    const entry = (f: string, status: string) => {
      const look = picture.get(f)!;
      return {
        status,
        size: look.size,
        mtimeMs: Math.round(look.mtimeMs),
        sha256: '',
        outputs: [],
        text: '',
        cost: 0,
        finishedAt: '',
      };
    };
    const record = join(dir, 'record.json');
    const save = (files: Record<string, unknown>) =>
      writeFileSync(record, JSON.stringify({ version: 1, files }));
    expect(await somethingNew(picture, join(dir, 'none.json'))).toBe(true);
    save({ 'a.txt': entry('a.txt', 'done') });
    expect(await somethingNew(picture, record)).toBe(true);
    save({ 'a.txt': entry('a.txt', 'done'), 'b.txt': entry('b.txt', 'failed') });
    expect(await somethingNew(picture, record)).toBe(false);
    save({ 'a.txt': entry('a.txt', 'done'), 'b.txt': { ...entry('b.txt', 'done'), size: 1 } });
    expect(await somethingNew(picture, record)).toBe(true);
  });
});

describe('nextSettled', () => {
  it('returns the new picture once the folder changed and held still, or nothing when stopped', async () => {
    const before = await lookAt(dir, opts());
    const stop = new AbortController();
    const waiting = nextSettled(dir, opts(), before, stop.signal);
    writeFileSync(join(dir, 'new.txt'), 'arrived');
    const settled = await waiting;
    expect([...(settled?.keys() ?? [])]).toEqual(['new.txt']);
    const idle = nextSettled(dir, opts(), settled!, stop.signal);
    stop.abort();
    expect(await idle).toBeUndefined();
  });
});
