import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RecordedRequest, Reply } from '../fake-zhipu/server.js';
import { useE2E } from '../helpers/e2e.js';
import { markerOf } from '../helpers/requests.js';
import { pollUntil, testEnv, ZHI_BIN } from '../helpers/zhi.js';

// --batch sends every model call of every file through the Batch API, in rounds (issue 26).
const e = useE2E();
const { fake } = e;
let home: string;
let work: string;
beforeEach(() => {
  fake.fallback = responder;
  ({ home, cwd: work } = e);
});

const env = { ZHI_BATCH_POLL_MS: '20' };
const zhi = (args: string[], extra: Record<string, string> = {}) =>
  e.zhi(args, { env: { ...env, ...extra }, timeoutMs: 60_000 });
const system = (body: RecordedRequest['body']): string => String(body.messages[0]?.content ?? '');
const isPart = (body: RecordedRequest['body']) => /This run handles part \d+ of \d+/.test(system(body));

/** A part: its result; a file's first call: write the table; the call after the tool result: answer. */
function responder(req: RecordedRequest): Reply {
  const id = markerOf(req.body);
  // Every part's result names the document (the long document's own run then carries its marker).
  if (isPart(req.body)) return { kind: 'text', text: 'Part result of MARKER-long' };
  if (req.body.messages.at(-1).role === 'user') {
    return {
      kind: 'tools',
      calls: [{ name: 'file_write', arguments: { path: `${id}-tables.md`, content: `Tables of ${id}` } }],
    };
  }
  return { kind: 'text', text: `Tables of ${id}: written to ${id}-tables.md` };
}

function makeFolder(n: number, longBytes = 0): string[] {
  mkdirSync(join(work, 'docs'), { recursive: true });
  const ids = Array.from({ length: n }, (_, k) => {
    const id = `t${k + 1}`;
    writeFileSync(join(work, 'docs', `${id}.txt`), `Document MARKER-${id}\n| a | b |\n| 1 | 2 |\n`);
    return id;
  });
  if (longBytes) {
    const page = `--- page ---\n${'Long contract clause with a figure of 12 and a date. '.repeat(40)}\n`;
    writeFileSync(
      join(work, 'docs', 'long.txt'),
      `MARKER-long\n${page.repeat(Math.ceil(longBytes / page.length))}`,
    );
    ids.push('long');
  }
  return ids;
}

const liveCalls = () => fake.requests.filter((r) => r.path.endsWith('/chat/completions'));
const uploads = () => fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/files'));

describe('zhi run … --batch: every call of every file, in rounds', () => {
  it('a two-call skill: both calls of every file go through batch uploads (two rounds), none online, and the saving is said', async () => {
    const ids = makeFolder(3);
    const r = await zhi(['run', 'extract-table', 'docs', '--auto', '--batch', '--model', 'glm-4-air']);
    expect(r.code).toBe(0);
    expect(liveCalls()).toHaveLength(0);
    // Two calls per file, each in a batch job: the first (write) in round 1, the answer in round 2.
    expect(fake.batchBodies).toHaveLength(ids.length * 2);
    for (const id of ids) {
      const mine = fake.batchBodies.filter((b) => markerOf(b) === id);
      expect(mine.map((b) => b.messages.at(-1).role).sort()).toEqual(['tool', 'user']);
      expect(readFileSync(join(work, 'zhi-output', `${id}-tables.md`), 'utf8')).toBe(`Tables of ${id}\n`);
    }
    expect(uploads()).toHaveLength(2);
    expect(r.stderr).toContain('(round 1): 3 model calls');
    expect(r.stderr).toContain('(round 2): 3 model calls');
    expect(r.stderr).toMatch(/Batch API: ¥[\d.]+ saved \(50 % less than the same calls online\)/);
    expect(r.stderr).not.toMatch(/fail/i);
    // Every answer was used: nothing kept on disk once every file is done.
    expect(existsSync(join(work, 'zhi-output', '.zhi-batch'))).toBe(false);

    const zh = await zhi(
      ['run', 'extract-table', 'docs', '--auto', '--batch', '--force', '--model', 'glm-4-air'],
      {
        ZHI_LANGUAGE: 'zh',
      },
    );
    expect(zh.code).toBe(0);
    expect(zh.stderr).toContain('（第 2 轮）');
    expect(zh.stderr).toContain('批处理 API：节省了');
    expect(zh.stderr).not.toContain('失败');
  });

  it("a long document inside a folder run: its parts are one round, and its run's calls the next ones", async () => {
    makeFolder(2, 260 * 1024);
    const r = await zhi(['run', 'extract-table', 'docs', '--auto', '--batch']);
    expect(r.code).toBe(0);
    expect(liveCalls()).toHaveLength(0);
    const parts = fake.batchBodies.filter(isPart);
    expect(parts.length).toBeGreaterThanOrEqual(3);
    // The long document's parts went in the first round together with the short files' first calls.
    expect(r.stderr).toContain(`(round 1): ${parts.length + 2} model calls`);
    expect(existsSync(join(work, 'zhi-output', 'long-tables.md'))).toBe(true);
  });

  it('killed while round 2 waits: the same command collects it, round 1 is not paid again', async () => {
    const ids = makeFolder(3);
    fake.fallback = (req) => {
      // Round 1 is answered; the next job (round 2) never finishes in the first run.
      if (req.body.messages.at(-1).role === 'user') fake.batchPolls = 1_000_000;
      return responder(req);
    };
    const child = spawn(process.execPath, [ZHI_BIN, 'run', 'extract-table', 'docs', '--auto', '--batch'], {
      cwd: work,
      env: testEnv({ baseUrl: fake.baseUrl, home, env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    await pollUntil(() => stderr.includes('(round 2)'));
    child.kill('SIGKILL');
    await new Promise((res) => child.on('close', res));
    expect(fake.batches.size).toBe(2);
    fake.batchPolls = 1;
    fake.fallback = responder;

    const again = await zhi(['run', 'extract-table', 'docs', '--auto', '--batch']);
    expect(again.code).toBe(0);
    expect(fake.batches.size).toBe(2); // no new job: round 1 replayed from disk, round 2 collected
    expect(liveCalls()).toHaveLength(0);
    for (const id of ids) expect(existsSync(join(work, 'zhi-output', `${id}-tables.md`))).toBe(true);
  });
});
