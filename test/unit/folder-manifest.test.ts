import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { appendFile, mkdir, readFile, realpath, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeLeftovers } from '../../src/agent/folder/leftovers.js';
import { fingerprint, manifestPath, RunManifest, readManifest } from '../../src/agent/folder/manifest.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

const dirs: string[] = [];
afterEach(() => cleanup(...dirs.splice(0)));

const init = { skill: 'summarize', skillHash: 'h1', model: 'glm-4-flash', folder: 'docs', currency: 'CNY' };

async function setup() {
  const dir = tempDir('zhi-manifest-');
  dirs.push(dir);
  const input = join(dir, 'a.txt');
  await writeFile(input, 'hello');
  return { dir, input, path: manifestPath(join(dir, 'out'), 'summarize', join(dir, 'docs')) };
}

describe('RunManifest', () => {
  it('records a finished file atomically and finds it done on the next run', async () => {
    const { input, path } = await setup();
    const m = await RunManifest.open(path, init);
    expect(await m.check('a.txt', input)).toBe('new');
    await m.record('a.txt', {
      ...(await fingerprint(input)),
      status: 'done',
      outputs: ['out/a-summary.md'],
      text: 'sum',
      cost: 0.01,
    });
    await m.close();
    const disk = await readManifest(path);
    expect(disk?.files['a.txt']).toMatchObject({ status: 'done', outputs: ['out/a-summary.md'], cost: 0.01 });
    expect(disk?.skill).toBe('summarize');
    const again = await RunManifest.open(path, init);
    expect(await again.check('a.txt', input)).toBe('done');
  });

  it('--force: the files to redo are not done any more on disk before anything starts (a kill leaves them to redo)', async () => {
    const { input, path } = await setup();
    const m = await RunManifest.open(path, init);
    const fp = await fingerprint(input);
    await m.record('a.txt', { ...fp, status: 'done', outputs: [], text: 'old', cost: 0 });
    await m.record('b.txt', { ...fp, status: 'failed', outputs: [], text: '', cost: 0 });
    await m.record('c.txt', { ...fp, status: 'done', outputs: [], text: 'kept', cost: 0 });
    // Killed before close: only the journal holds the entries.
    const forced = await RunManifest.open(path, init);
    await forced.forget(['a.txt', 'b.txt']);
    // The forced run is killed too: nothing closes it.
    const next = await RunManifest.open(path, init);
    expect(await next.check('a.txt', input)).toBe('new');
    expect(await next.check('b.txt', input)).toBe('failed');
    expect(await next.check('c.txt', input)).toBe('done');
  });

  it('redoes a file whose size or content changed, not one that was only touched', async () => {
    const { input, path } = await setup();
    const m = await RunManifest.open(path, init);
    await m.record('a.txt', {
      ...(await fingerprint(input)),
      status: 'done',
      outputs: [],
      text: '',
      cost: 0,
    });
    const later = new Date(Date.now() + 60_000);
    await utimes(input, later, later);
    expect(await m.check('a.txt', input)).toBe('done');
    await writeFile(input, 'jello');
    await utimes(input, later, new Date(Date.now() + 120_000));
    expect(await m.check('a.txt', input)).toBe('changed');
    await writeFile(input, 'hello!');
    expect(await m.check('a.txt', input)).toBe('changed');
  });

  it('redoes everything when the skill changed, and failed files again', async () => {
    const { input, path } = await setup();
    const m = await RunManifest.open(path, init);
    await m.record('a.txt', {
      ...(await fingerprint(input)),
      status: 'done',
      outputs: [],
      text: '',
      cost: 0,
    });
    await m.record('b.txt', {
      size: 1,
      mtimeMs: 1,
      sha256: 'x',
      status: 'failed',
      outputs: [],
      text: '',
      cost: 0,
    });
    const changed = await RunManifest.open(path, { ...init, skillHash: 'h2' });
    expect(await changed.check('a.txt', input)).toBe('changed');
    expect(await changed.check('b.txt', input)).toBe('failed');
  });

  it('many files in a row: each is in the journal at once, the manifest holds them all when closed', async () => {
    const { path } = await setup();
    const m = await RunManifest.open(path, init);
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        m.record(`f${i}.txt`, {
          size: i,
          mtimeMs: i,
          sha256: 's',
          status: 'done',
          outputs: [],
          text: `t${i}`,
          cost: 0,
        }),
      ),
    );
    // Killed now: the manifest file may be behind, but opening it again folds the journal in.
    const reopened = await RunManifest.open(path, init);
    expect(Object.keys(reopened.data.files)).toHaveLength(30);
    await m.close();
    const disk = JSON.parse(await readFile(path, 'utf8'));
    expect(Object.keys(disk.files)).toHaveLength(30);
    expect(existsSync(`${path}.journal`)).toBe(false);
  });

  it('a journal line torn by a kill is skipped, the others count', async () => {
    const { path } = await setup();
    const m = await RunManifest.open(path, init);
    await m.record('a.txt', {
      size: 1,
      mtimeMs: 1,
      sha256: 's',
      status: 'done',
      outputs: [],
      text: '',
      cost: 0,
    });
    await m.record('c.txt', {
      size: 1,
      mtimeMs: 1,
      sha256: 's',
      status: 'done',
      outputs: [],
      text: '',
      cost: 0,
    });
    await appendFile(`${path}.journal`, '{"rel":"b.txt","entry":{"sta');
    const again = await RunManifest.open(path, init);
    expect(Object.keys(again.data.files).sort()).toEqual(['a.txt', 'c.txt']);
  });

  it('starts over from a damaged manifest', async () => {
    const { input, path } = await setup();
    const m = await RunManifest.open(path, init);
    await m.close();
    await writeFile(path, '{"version":1,"files":');
    const again = await RunManifest.open(path, init);
    expect(await again.check('a.txt', input)).toBe('new');
  });

  it('records a file before it is written; after a kill the unfinished input has it as a leftover', async () => {
    const { input, path } = await setup();
    const m = await RunManifest.open(path, init);
    // A first input finishes (the manifest exists), a second writes one file and is killed.
    await m.record('b.txt', {
      ...(await fingerprint(input)),
      status: 'done',
      outputs: [],
      text: '',
      cost: 0,
    });
    await m.writing('a.txt', { path: 'a-summary.md', sha256: 'abc', bytes: 3 });
    // No close(): the journal is all there is, as after kill -9.
    const after = await RunManifest.open(path, init);
    expect(after.leftovers('a.txt')).toEqual([{ path: 'a-summary.md', sha256: 'abc', bytes: 3 }]);
    expect(await after.check('a.txt', input)).toBe('new');
    expect(after.leftovers('b.txt')).toEqual([]);
    // Cleared, then written again and finished: no leftovers, the write is the entry's.
    await after.cleared('a.txt');
    await after.writing('a.txt', { path: 'a-summary.md', sha256: 'def', bytes: 3 });
    await after.record('a.txt', {
      ...(await fingerprint(input)),
      status: 'done',
      outputs: [],
      text: '',
      cost: 0,
    });
    const reread = await RunManifest.open(path, init);
    expect(reread.leftovers('a.txt')).toEqual([]);
    expect(reread.entry('a.txt')?.written).toEqual([{ path: 'a-summary.md', sha256: 'def', bytes: 3 }]);
    await reread.close();
    expect((await readManifest(path))?.pending).toBeUndefined();
  });

  it("a failed input's writes are leftovers when it is done again", async () => {
    const { input, path } = await setup();
    const m = await RunManifest.open(path, init);
    await m.writing('a.txt', { path: 'half.md', sha256: 'abc', bytes: 3 });
    await m.record('a.txt', {
      ...(await fingerprint(input)),
      status: 'failed',
      outputs: [],
      text: '',
      cost: 0,
    });
    await m.close();
    const again = await RunManifest.open(path, init);
    expect(again.leftovers('a.txt')).toEqual([{ path: 'half.md', sha256: 'abc', bytes: 3 }]);
    await again.cleared('a.txt');
    expect(again.leftovers('a.txt')).toEqual([]);
  });
});

describe('removeLeftovers', () => {
  it('removes only files still exactly as zhi wrote them, inside the output folder, and their temp files', async () => {
    const { dir } = await setup();
    const out = join(dir, 'out');
    await mkdir(out, { recursive: true });
    await writeFile(join(out, 'mine.md'), 'abc');
    await writeFile(join(out, 'edited.md'), 'abX');
    await writeFile(join(out, '.mine.md.0a1b2c3d.zhi-tmp'), 'ab');
    await writeFile(join(dir, 'outside.md'), 'abc');
    const sha = createHash('sha256').update('abc').digest('hex');
    const removed = await removeLeftovers(out, [
      { path: 'mine.md', sha256: sha, bytes: 3 },
      { path: 'edited.md', sha256: sha, bytes: 3 },
      { path: '../outside.md', sha256: sha, bytes: 3 },
      { path: 'gone.md', sha256: sha, bytes: 3 },
    ]);
    expect(removed).toEqual([join(await realpath(out), 'mine.md')]);
    expect(existsSync(join(out, 'mine.md'))).toBe(false);
    expect(existsSync(join(out, '.mine.md.0a1b2c3d.zhi-tmp'))).toBe(false);
    expect(readFileSync(join(out, 'edited.md'), 'utf8')).toBe('abX');
    expect(existsSync(join(dir, 'outside.md'))).toBe(true);
  });
});
