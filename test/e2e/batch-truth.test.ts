import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RecordedRequest, Reply } from '../fake-zhipu/server.js';
import { useE2E } from '../helpers/e2e.js';
import { markerOf } from '../helpers/requests.js';

const e = useE2E();
const { fake } = e;
let work: string;
beforeEach(() => {
  fake.fallback = responder;
  ({ cwd: work } = e);
});

const env = { ZHI_BATCH_POLL_MS: '20' };
const zhi = (args: string[], cwd?: string) =>
  e.zhi(args, { env, timeoutMs: 30_000, ...(cwd ? { cwd } : {}) });

/** The summary written says which version of the document it was made from. */
function responder(req: RecordedRequest): Reply {
  const id = markerOf(req.body);
  const user = String(req.body.messages.find((m: { role: string }) => m.role === 'user')?.content ?? '');
  const version = /VERSION-(\d+)/.exec(user)?.[1] ?? '1';
  if (req.body.messages.at(-1).role === 'user') {
    return {
      kind: 'tools',
      calls: [
        {
          name: 'file_write',
          arguments: { path: `${id}-summary.md`, content: `Summary of ${id} v${version}` },
        },
      ],
    };
  }
  return { kind: 'text', text: `Summary of ${id}` };
}

function makeFolder(n: number): string[] {
  mkdirSync(join(work, 'docs'), { recursive: true });
  return Array.from({ length: n }, (_, k) => {
    const id = `b${k + 1}`;
    writeFileSync(join(work, 'docs', `${id}.txt`), `Document MARKER-${id} VERSION-1\n`);
    return id;
  });
}

const out = (name: string) => join(work, 'zhi-output', name);
const manifestOf = () => {
  const dir = join(work, 'zhi-output', '.zhi-runs');
  return JSON.parse(readFileSync(join(dir, readdirSync(dir).find((n) => n.endsWith('.json'))!), 'utf8'));
};

describe('done means written', () => {
  it('a run that could never write says so before the first paid call; with --auto the job writes them all, then nothing is sent again', async () => {
    const ids = makeFolder(3);
    const first = await zhi(['run', 'summarize', 'docs', '--batch']);
    expect(first.code).toBe(2);
    expect(first.stderr).toContain(
      'summarize writes files, and this run could not let it: nothing was sent.',
    );
    expect(first.stderr).toContain('there is no terminal to ask');
    expect(first.stderr).toContain('--auto');
    expect(fake.batches.size).toBe(0);
    expect(fake.requests.filter((q) => q.path.endsWith('/chat/completions'))).toHaveLength(0);

    const zh = await e.zhi(['run', 'summarize', 'docs'], { env: { ...env, ZHI_LANGUAGE: 'zh' } });
    expect(zh.code).toBe(2);
    expect(zh.stderr).toContain('什么都没有发送');

    const auto = await zhi(['run', 'summarize', 'docs', '--batch', '--auto']);
    expect(auto.code).toBe(0);
    for (const k of ids) expect(readFileSync(out(`${k}-summary.md`), 'utf8')).toBe(`Summary of ${k} v1\n`);
    const done = manifestOf();
    for (const k of ids) {
      expect(done.files[`${k}.txt`].status).toBe('done');
      expect(done.files[`${k}.txt`].written[0]).toMatchObject({ path: `${k}-summary.md`, bytes: 17 });
    }
    expect(done.batch).toBeUndefined();

    // Once more: every file is done, nothing is sent.
    const before = fake.requests.length;
    const once = await zhi(['run', 'summarize', 'docs', '--batch', '--auto']);
    expect(once.code).toBe(0);
    expect(once.stderr).toContain('Every file is already done');
    expect(fake.requests.slice(before).filter((q) => q.path.endsWith('/chat/completions'))).toHaveLength(0);
  });

  it('a changed input and --force replace their own earlier outputs (said once), never a file of the person', async () => {
    makeFolder(2);
    expect((await zhi(['run', 'summarize', 'docs', '--auto'])).code).toBe(0);
    writeFileSync(join(work, 'docs', 'b1.txt'), 'Document MARKER-b1 VERSION-2\n');
    writeFileSync(out('notes.md'), 'mine\n');
    const r = await zhi(['run', 'summarize', 'docs', '--auto']);
    expect(r.code).toBe(0);
    expect(r.stderr.match(/earlier outputs are replaced/g)).toHaveLength(1);
    expect(r.stderr).toContain('1 files changed');
    expect(readFileSync(out('b1-summary.md'), 'utf8')).toBe('Summary of b1 v2\n');
    expect(existsSync(out('b1-summary-2.md'))).toBe(false);
    expect(readFileSync(out('b2-summary.md'), 'utf8')).toBe('Summary of b2 v1\n');

    const forced = await zhi(['run', 'summarize', 'docs', '--auto', '--force']);
    expect(forced.code).toBe(0);
    expect(forced.stderr).toContain('2 files changed');
    expect(readdirSync(join(work, 'zhi-output')).sort()).toEqual([
      '.zhi-runs',
      'b1-summary.md',
      'b2-summary.md',
      'notes.md',
    ]);
    expect(readFileSync(out('notes.md'), 'utf8')).toBe('mine\n');
  });

  it('`zhi batch status` of an unknown job says so, without advice about model names (en, zh)', async () => {
    const r = await zhi(['batch', 'status', 'nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('There is no batch job nope for this API key');
    expect(r.stderr).not.toMatch(/model/i);
    const zh = await e.zhi(['batch', 'status', 'nope'], { env: { ...env, ZHI_LANGUAGE: 'zh' } });
    expect(zh.stderr).toContain('没有批处理任务 nope');
  });
});
