import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { RunManifest } from '../../src/agent/folder/manifest.js';
import { textWidth } from '../../src/support/width.js';
import type { RecordedRequest, Reply } from '../fake-zhipu/server.js';
import { useE2E } from '../helpers/e2e.js';
import { markerOf } from '../helpers/requests.js';
import { stretched } from '../helpers/slowdown.js';
import { testEnv, ZHI_BIN } from '../helpers/zhi.js';

const e = useE2E();
const { fake } = e;
let home: string;
let work: string;
beforeEach(() => {
  fake.fallback = folderResponder;
  ({ home, cwd: work } = e);
});

const zhi = (args: string[], env: Record<string, string> = {}) => e.zhi(args, { env, timeoutMs: 60_000 });

/** Each document says which file it is; the fake writes `<id>-summary.md` (the written file is the answer). */
function folderResponder(req: RecordedRequest): Reply {
  const id = markerOf(req.body);
  const last = req.body.messages[req.body.messages.length - 1];
  if (last.role === 'user') {
    return {
      kind: 'tools',
      calls: [{ name: 'file_write', arguments: { path: `${id}-summary.md`, content: `Summary of ${id}` } }],
    };
  }
  return { kind: 'text', text: `Summary of ${id}` };
}

function makeFolder(n: number, dir = 'docs', prefix = 'f'): string[] {
  mkdirSync(join(work, dir), { recursive: true });
  const ids: string[] = [];
  for (let i = 1; i <= n; i++) {
    const id = `${prefix}${String(i).padStart(3, '0')}`;
    writeFileSync(join(work, dir, `${id}.txt`), `Document MARKER-${id}\nSome text.\n`);
    ids.push(id);
  }
  return ids;
}

const firstCalls = () =>
  fake.requests
    .filter(
      (r) =>
        r.path.endsWith('/chat/completions') &&
        r.body.messages.filter((m: { role: string }) => m.role === 'user').length === 1 &&
        r.body.messages.at(-1).role === 'user',
    )
    .map((r) => markerOf(r.body));

describe('zhi run <skill> <folder>: concurrent, resumable', () => {
  it(
    'runs 100 files with --jobs 8 in under a quarter of the serial time, in folder order, with a manifest',
    async () => {
      fake.latencyMs = 200;
      // The serial time, measured on this machine now (it may be loaded): 8 files one at a time.
      makeFolder(8, 'sample', 's');
      let started = Date.now();
      expect((await zhi(['run', 'summarize', 'sample', '--auto', '--jobs', '1'])).code).toBe(0);
      const serialPerFile = (Date.now() - started) / 8;
      expect(fake.maxInFlight).toBe(1);

      fake.reset();
      const ids = makeFolder(100);
      started = Date.now();
      const r = await zhi(['run', 'summarize', 'docs', '--auto', '--jobs', '8']);
      const elapsed = Date.now() - started;
      expect(r.stderr).not.toMatch(/failed/i);
      expect(r.code).toBe(0);
      expect(fake.maxInFlight).toBeGreaterThanOrEqual(6);
      expect(fake.maxInFlight).toBeLessThanOrEqual(8);
      expect(elapsed).toBeLessThan((serialPerFile * 100) / 4);
      // Answers in folder order, each under its file's name.
      const order = [...r.stdout.matchAll(/## docs\/(f\d+)\.txt/g)].map((m) => m[1]);
      expect(order).toEqual(ids);
      for (const id of ids) {
        expect(readFileSync(join(work, 'zhi-output', `${id}-summary.md`), 'utf8')).toContain(
          `Summary of ${id}`,
        );
      }
      const runs = readdirSync(join(work, 'zhi-output', '.zhi-runs')).filter((f) =>
        f.startsWith('summarize-docs-'),
      );
      expect(runs).toHaveLength(1);
      const manifest = JSON.parse(readFileSync(join(work, 'zhi-output', '.zhi-runs', runs[0]!), 'utf8'));
      expect(manifest.skill).toBe('summarize');
      expect(Object.keys(manifest.files)).toHaveLength(100);
      expect(manifest.files['f001.txt']).toMatchObject({
        status: 'done',
        outputs: ['zhi-output/f001-summary.md'],
      });
      // Piped stderr: one plain line per file, then a summary of the outputs (not 100 index lines).
      expect(r.stderr).toContain('100 of 100 files to process, 8 at a time');
      expect(r.stderr).toMatch(/\[100\/100\] ✓ docs\/f\d+\.txt/);
      expect(r.stderr).toContain('Written: 100 files, in zhi-output/');
      expect(r.stderr).not.toContain('docs/f001.txt → zhi-output/f001-summary.md');
    },
    stretched(120_000),
  );

  it('a second run skips finished files and says so; --force redoes them; a changed file is redone', async () => {
    makeFolder(5);
    expect((await zhi(['run', 'summarize', 'docs', '--auto'])).code).toBe(0);
    fake.reset();
    const again = await zhi(['run', 'summarize', 'docs', '--auto']);
    expect(again.code).toBe(0);
    expect(firstCalls()).toEqual([]);
    expect(again.stderr).toContain('Every file is already done');
    expect(again.stdout).toContain('Summary of f003');

    writeFileSync(join(work, 'docs', 'f002.txt'), 'Document MARKER-f002\nNew text, longer than before.\n');
    fake.reset();
    // The model answers in text first: summarize promises a file, so it is reminded, then writes.
    fake.fallback = (req) =>
      req.body.messages.length === 2
        ? { kind: 'text', text: `New summary of ${markerOf(req.body)}` }
        : folderResponder(req);
    const changed = await zhi(['run', 'summarize', 'docs', '--auto', '--resume']);
    expect(changed.code).toBe(0);
    expect(firstCalls()).toEqual(['f002']);
    const reminded = fake.requests.find((r) => r.body.messages?.length === 4);
    expect(String(reminded?.body.messages.at(-1).content)).toContain('Call file_write now');
    expect(changed.stderr).toContain('4 already done by an earlier run');

    fake.reset();
    const forced = await zhi(['run', 'summarize', 'docs', '--auto', '--force', '--jobs', '2']);
    expect(forced.code).toBe(0);
    expect(firstCalls().sort()).toEqual(['f001', 'f002', 'f003', 'f004', 'f005']);
  });

  it('a run killed at 40 % (files mid-way) and started again does only the rest, with the same outputs byte for byte', async () => {
    const ids = makeFolder(20);
    // Like a model: a taken name gets another one, as the tool's error suggests.
    const likeModel = (req: RecordedRequest): Reply => {
      const last = req.body.messages.at(-1);
      const taken = /Write to a new name instead, for example "([^"]+)"/.exec(String(last.content))?.[1];
      if (last.role === 'tool' && taken)
        return {
          kind: 'tools',
          calls: [
            { name: 'file_write', arguments: { path: taken, content: `Summary of ${markerOf(req.body)}` } },
          ],
        };
      // After writing it asks for one more thing (a tool it lacks), so a file waits for a second
      // answer with its output on disk: the mid-way state a kill can catch. (A plain write ends
      // the run at once: the written file is summarize's answer.)
      if (last.role === 'user') {
        const id = markerOf(req.body);
        return {
          kind: 'tools',
          calls: [
            { name: 'file_write', arguments: { path: `${id}-summary.md`, content: `Summary of ${id}` } },
            { name: 'file_list', arguments: { path: '.' } },
          ],
        };
      }
      return folderResponder(req);
    };
    fake.fallback = likeModel;
    fake.latencyMs = 200;
    const child = spawn(process.execPath, [ZHI_BIN, 'run', 'summarize', 'docs', '--auto', '--jobs', '4'], {
      cwd: work,
      env: testEnv({ baseUrl: fake.baseUrl, home }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Kill it (no chance to clean up) once 8 files (40 %) have written their output: the files
    // in flight have written theirs too, and wait for their last answer.
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const answered = fake.requests.filter((r) => r.body?.messages?.at(-1)?.role === 'tool').length;
        if (answered >= 8) {
          clearInterval(timer);
          child.kill('SIGKILL');
          resolve();
        }
      }, 5);
    });
    await new Promise((r) => child.on('close', r));
    // What the killed run left: the manifest and its journal, read as zhi reads them.
    const runs = readdirSync(join(work, 'zhi-output', '.zhi-runs')).filter((f) => f.endsWith('.json'));
    const path = join(work, 'zhi-output', '.zhi-runs', runs[0]!);
    const left = await RunManifest.open(path, {
      skill: 'summarize',
      skillHash: '',
      model: '',
      folder: '',
      currency: '',
    });
    const doneBefore = Object.keys(left.data.files).map((f) => f.replace('.txt', ''));
    expect(doneBefore.length).toBeLessThan(20);
    // Files cut off mid-way: their outputs are on disk and in the manifest, though they never finished.
    const midway = Object.keys(left.data.pending ?? {});
    expect(midway.length).toBeGreaterThan(0);
    for (const rel of midway) {
      const id = rel.replace('.txt', '');
      expect(left.data.pending![rel]!.map((w) => w.path)).toEqual([`${id}-summary.md`]);
      expect(existsSync(join(work, 'zhi-output', `${id}-summary.md`))).toBe(true);
    }

    fake.reset();
    fake.fallback = likeModel;
    fake.latencyMs = 0;
    const r = await zhi(['run', 'summarize', 'docs', '--auto', '--jobs', '4']);
    expect(r.code).toBe(0);
    const redone = firstCalls();
    for (const id of doneBefore) expect(redone).not.toContain(id);
    expect(new Set([...redone, ...doneBefore])).toEqual(new Set(ids));
    expect(r.stderr).toMatch(
      /doing docs\/f\d+\.txt again: removed what its unfinished run had written \(zhi-output\/f\d+-summary\.md\)/,
    );
    // The same outputs as one uninterrupted run: the same names, the same bytes, nothing else
    // (no -2 copies, no temporary files).
    expect(readdirSync(join(work, 'zhi-output')).sort()).toEqual(
      ['.zhi-runs', ...ids.map((id) => `${id}-summary.md`)].sort(),
    );
    for (const id of ids) {
      expect(readFileSync(join(work, 'zhi-output', `${id}-summary.md`), 'utf8')).toBe(`Summary of ${id}\n`);
    }
    const manifest = JSON.parse(readFileSync(path, 'utf8'));
    expect(manifest.pending).toBeUndefined();
    for (const id of ids)
      expect(manifest.files[`${id}.txt`].outputs).toEqual([`zhi-output/${id}-summary.md`]);
    const order = [...r.stdout.matchAll(/## docs\/(f\d+)\.txt/g)].map((m) => m[1]);
    expect(order).toEqual(ids);
  });

  it('a 1302 storm slows the pool down without failing a file', async () => {
    const ids = makeFolder(24);
    fake.latencyMs = 40;
    fake.concurrencyLimit = 3;
    const r = await zhi(['run', 'summarize', 'docs', '--auto', '--jobs', '8']);
    expect(fake.refused).toBeGreaterThan(0);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('failed');
    for (const id of ids) expect(existsSync(join(work, 'zhi-output', `${id}-summary.md`))).toBe(true);
  });

  it('a 1305 (overloaded) storm backs off and tries the files again, none fails', async () => {
    const ids = makeFolder(12);
    let calls = 0;
    fake.fallback = (req) => {
      calls += 1;
      // The first 24 calls find the model overloaded: more than the client's own retries take
      // (4 tries a call), so whole files are put back, the pool halves and pauses.
      if (calls <= 24) {
        return { kind: 'error', status: 429, code: '1305', message: '该模型当前访问量过大，请您稍后再试' };
      }
      return folderResponder(req);
    };
    const r = await zhi(['run', 'summarize', 'docs', '--auto', '--jobs', '4']);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('✗');
    expect(r.stderr).toContain('the API is overloaded (1305); trying docs/');
    for (const id of ids) expect(existsSync(join(work, 'zhi-output', `${id}-summary.md`))).toBe(true);
    const manifest = readdirSync(join(work, 'zhi-output', '.zhi-runs')).find((f) => f.endsWith('.json'))!;
    const data = JSON.parse(readFileSync(join(work, 'zhi-output', '.zhi-runs', manifest), 'utf8'));
    expect(Object.values(data.files).every((e) => (e as { status: string }).status === 'done')).toBe(true);
  });

  it('--output-format stream-json: one event per file as it starts and ends, the folder start and end', async () => {
    const ids = makeFolder(6);
    const r = await zhi([
      'run',
      'summarize',
      'docs',
      '--auto',
      '--jobs',
      '3',
      '--output-format',
      'stream-json',
    ]);
    expect(r.code).toBe(0);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const files = events.filter((e) => e.type === 'folder_file');
    for (const id of ids) {
      const mine = files.filter((e) => e.file === `docs/${id}.txt`).map((e) => e.status);
      expect(mine).toEqual(['started', 'done']);
    }
    const done = files.find((e) => e.status === 'done' && e.file === 'docs/f002.txt');
    expect(done).toMatchObject({ skill: 'summarize', index: 1, outputs: ['zhi-output/f002-summary.md'] });
    expect(events.find((e) => e.type === 'folder_start')).toMatchObject({ todo: 6, jobs: 3 });
    expect(events.find((e) => e.type === 'folder_end')).toMatchObject({ counts: { done: 6, failed: 0 } });
  });

  it("one model call per file: the written file is the answer, shown in the run's answer", async () => {
    const ids = makeFolder(6);
    const r = await zhi(['run', 'summarize', 'docs', '--auto', '--jobs', '3']);
    expect(r.code).toBe(0);
    const chats = fake.requests.filter((q) => q.path.endsWith('/chat/completions'));
    expect(chats).toHaveLength(ids.length);
    expect(chats.every((q) => q.body.messages.at(-1).role === 'user')).toBe(true);
    for (const id of ids) {
      expect(readFileSync(join(work, 'zhi-output', `${id}-summary.md`), 'utf8')).toBe(`Summary of ${id}\n`);
      expect(r.stdout).toContain(`## docs/${id}.txt\n\nSummary of ${id}`);
    }
  });

  it('1113 (no balance) stops the run cleanly with the manifest intact', async () => {
    makeFolder(12);
    let calls = 0;
    fake.fallback = (req) => {
      calls += 1;
      // One call per file: three files done, the fourth meets the error.
      if (calls > 3)
        return { kind: 'error', status: 429, code: '1113', message: '余额不足或无可用资源包,请充值。' };
      return folderResponder(req);
    };
    const r = await zhi(['run', 'summarize', 'docs', '--auto', '--jobs', '1']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/balance|充值/i);
    expect(r.stderr).toMatch(/files were not started; run the same command again/);
    const runs = readdirSync(join(work, 'zhi-output', '.zhi-runs'));
    expect(runs.every((f) => f.endsWith('.json'))).toBe(true);
    const manifest = JSON.parse(readFileSync(join(work, 'zhi-output', '.zhi-runs', runs[0]!), 'utf8'));
    const done = Object.values(manifest.files).filter((f) => (f as { status: string }).status === 'done');
    expect(done).toHaveLength(3);
    // Only the one file that met the error was tried after it: nothing else started.
    expect(firstCalls().length).toBe(4);
  });

  it('--recursive with --include/--exclude picks the files', async () => {
    makeFolder(2, 'docs');
    makeFolder(2, 'docs/2024');
    writeFileSync(join(work, 'docs', '2024', 'skip.md'), 'MARKER-skip');
    writeFileSync(join(work, 'docs', 'notes.md'), 'MARKER-notes');
    const r = await zhi([
      'run',
      'summarize',
      '--recursive',
      'docs',
      '--auto',
      '--include',
      '*.txt',
      '--exclude',
      'f002.txt',
    ]);
    expect(r.code).toBe(0);
    expect([...r.stdout.matchAll(/## (docs\/[^\n]+)/g)].map((m) => m[1])).toEqual([
      'docs/f001.txt',
      'docs/2024/f001.txt',
    ]);
  });

  it('--recursive on the current folder never takes zhi-output (earlier outputs) or run records as inputs', async () => {
    makeFolder(2, 'docs');
    expect((await zhi(['run', 'summarize', '.', '--recursive', '--auto'])).code).toBe(0);
    // The outputs mirror the inputs' subfolders.
    expect(existsSync(join(work, 'zhi-output', 'docs', 'f001-summary.md'))).toBe(true);
    writeFileSync(join(work, 'docs', 'f003.txt'), 'Document MARKER-f003\n');
    fake.reset();
    const r = await zhi(['run', 'summarize', '.', '--recursive', '--auto']);
    expect(r.code).toBe(0);
    expect(firstCalls()).toEqual(['f003']);
    expect(r.stderr).toContain('1 of 3 files to process');
    expect(r.stderr).not.toMatch(/✓ zhi-output/);
    expect(r.stdout).not.toMatch(/## zhi-output/);
  });

  it('ends with a table of the failed files and their reasons, and an index of what was written (in Chinese too)', async () => {
    makeFolder(4);
    fake.fallback = (req) =>
      markerOf(req.body) === 'f003'
        ? { kind: 'error', status: 400, code: '1214', message: 'messages 参数非法。请检查文档。' }
        : folderResponder(req);
    const r = await zhi(['run', 'summarize', 'docs', '--auto', '--jobs', '2']);
    expect(r.code).toBe(1);
    const lines = r.stderr.split('\n');
    const table = lines.indexOf('Files that failed (1):');
    expect(table).toBeGreaterThan(-1);
    expect(lines[table + 1]).toMatch(/^ {2}docs\/f003\.txt +\S/);
    const index = lines.indexOf('Written (3 files):');
    expect(index).toBeGreaterThan(table);
    expect(lines.slice(index + 1, index + 4)).toEqual([
      '  docs/f001.txt → zhi-output/f001-summary.md',
      '  docs/f002.txt → zhi-output/f002-summary.md',
      '  docs/f004.txt → zhi-output/f004-summary.md',
    ]);
    // The failed file alone is done again next time, in Chinese this time.
    fake.reset();
    fake.fallback = folderResponder;
    const zh = await zhi(['run', 'summarize', 'docs', '--auto'], { ZHI_LANGUAGE: 'zh' });
    expect(zh.code).toBe(0);
    expect(firstCalls()).toEqual(['f003']);
    expect(zh.stderr).toContain('共 4 个文件，本次处理 1 个');
    expect(zh.stderr).toContain('3 个已在之前的运行中完成');
    expect(zh.stderr).toContain('已写入（4 个文件）：');
  });

  it('--jobs must be a sensible number', async () => {
    makeFolder(1);
    const r = await zhi(['run', 'summarize', 'docs', '--jobs', 'lots']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--jobs');
  });
});

describe('zhi run … --dry-run', () => {
  it('lists what would be processed with estimated tokens and prices, and sends nothing', async () => {
    makeFolder(4);
    const r = await zhi(['run', 'summarize', 'docs', '--dry-run']);
    expect(r.code).toBe(0);
    expect(fake.requests.filter((q) => q.path.endsWith('/chat/completions'))).toHaveLength(0);
    expect(r.stdout).toContain('Would process 4 of 4 files with summarize on glm-4-flash (0 already done)');
    expect(r.stdout).toMatch(/docs\/f001\.txt\s+about [\d,]+ tokens in/);
    expect(r.stdout).toMatch(/on glm-4-flash:\s+≈?¥0\.00/);
    expect(r.stdout).toMatch(/on glm-5:\s+≈?¥0\.\d+/);
    expect(r.stdout).toMatch(/with --batch \(results within 24 h\):\s+≈?¥/);
    // summarize's written file is its answer: one model call per file, so the input in all is
    // the four files' first requests, once each.
    const num = (x: string) => Number(x.replace(/,/g, ''));
    const rowTokens = [...r.stdout.matchAll(/f00\d\.txt\s+about ([\d,]+) tokens in/g)].map((m) => num(m[1]!));
    expect(rowTokens).toHaveLength(4);
    const total = /Estimated in all: ([\d,]+) input and [\d,]+ output tokens in about (\d+) model calls/.exec(
      r.stdout,
    );
    expect(total, r.stdout).not.toBeNull();
    expect(num(total![1]!)).toBe(rowTokens.reduce((a, b) => a + b, 0));
    expect(total![2]).toBe('4');
    // The real saving: every call of every file goes through the Batch API, in rounds.
    const air = await zhi(['run', 'summarize', 'docs', '--dry-run', '--model', 'glm-4-air']);
    const saving = Number(
      /\((\d+) % less: every model call goes through the Batch API/.exec(air.stdout)?.[1],
    );
    expect(saving).toBe(50);
    expect(existsSync(join(work, 'zhi-output', 'f001-summary.md'))).toBe(false);

    // After a real run of part of the folder, only the rest would be processed; in Chinese too.
    expect((await zhi(['run', 'summarize', 'docs', '--auto', '--include', 'f00[12].txt'])).code).toBe(0);
    const zh = await zhi(['run', 'summarize', 'docs', '--dry-run', '--model', 'glm-4-air'], {
      ZHI_LANGUAGE: 'zh',
    });
    expect(zh.stdout).toContain('将用 summarize（glm-4-air）处理 4 个文件中的 2 个（2 个已完成）');
    expect(zh.stdout).toContain('未发送任何请求');
    expect(zh.stdout).toMatch(/预计总计：约 2 次模型调用/);
  });
});

describe('zhi run … --dry-run with Chinese file names', () => {
  it('lines up the token column by display width, not by characters', async () => {
    mkdirSync(join(work, 'cn'), { recursive: true });
    writeFileSync(join(work, 'cn', '季度报告总结.txt'), 'Document MARKER-a\nSome text.\n');
    writeFileSync(join(work, 'cn', 'ab.txt'), 'Document MARKER-b\nSome text.\n');
    const r = await zhi(['run', 'summarize', 'cn', '--dry-run']);
    expect(r.code).toBe(0);
    const rows = r.stdout.split('\n').filter((l) => /\.txt\s+about/.test(l));
    expect(rows).toHaveLength(2);
    const column = (l: string) => textWidth(l.slice(0, l.indexOf('about')));
    expect(column(rows[0]!)).toBe(column(rows[1]!));
  });
});
