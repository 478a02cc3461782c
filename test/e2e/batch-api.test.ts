import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { costOf } from '../../src/llm/models.js';
import { PLATFORMS } from '../../src/llm/platforms.js';
import type { RecordedRequest, Reply } from '../fake-zhipu/server.js';
import { useE2E } from '../helpers/e2e.js';
import { markerOf } from '../helpers/requests.js';
import { pollUntil, testEnv, ZHI_BIN } from '../helpers/zhi.js';

const e = useE2E();
const { fake } = e;
let home: string;
let work: string;
beforeEach(() => {
  fake.fallback = responder;
  ({ home, cwd: work } = e);
});

const env = { ZHI_BATCH_POLL_MS: '20' };
const zhi = (args: string[]) => e.zhi(args, { env, timeoutMs: 30_000 });

/** First call (in the batch job): write the summary; the call after the tool result: answer. */
function responder(req: RecordedRequest): Reply {
  const id = markerOf(req.body);
  if (req.body.messages.at(-1).role === 'user') {
    return {
      kind: 'tools',
      calls: [{ name: 'file_write', arguments: { path: `${id}-summary.md`, content: `Summary of ${id}` } }],
    };
  }
  return { kind: 'text', text: `Summary of ${id}` };
}

function makeFolder(n: number): string[] {
  mkdirSync(join(work, 'docs'), { recursive: true });
  return Array.from({ length: n }, (_, k) => {
    const id = `b${k + 1}`;
    writeFileSync(join(work, 'docs', `${id}.txt`), `Document MARKER-${id}\n`);
    return id;
  });
}

const liveCalls = () => fake.requests.filter((r) => r.path.endsWith('/chat/completions'));
const manifestOf = () => {
  const dir = join(work, 'zhi-output', '.zhi-runs');
  return JSON.parse(readFileSync(join(dir, readdirSync(dir)[0]!), 'utf8'));
};

describe('zhi run … --batch: the Batch API', () => {
  it('uploads one JSONL job, polls it, replays each first answer, runs its file_write here, at the batch price and no online call', async () => {
    const ids = makeFolder(3);
    const r = await zhi(['run', 'summarize', 'docs', '--auto', '--batch', '--model', 'glm-4-air']);
    expect(r.stderr).toContain('Batch job batch_');
    expect(r.code).toBe(0);

    // Upload (multipart, purpose batch), create, polls, then the output file.
    const paths = fake.requests.map((q) => `${q.method} ${q.path.replace(/^\/api\/paas\/v4/, '')}`);
    expect(paths).toContain('POST /files');
    expect(paths).toContain('POST /batches');
    expect(paths.filter((p) => /^GET \/batches\/batch_/.test(p)).length).toBeGreaterThanOrEqual(2);
    expect(paths.some((p) => /^GET \/files\/.+\/content$/.test(p))).toBe(true);
    const create = fake.requests.find((q) => q.method === 'POST' && q.path.endsWith('/batches'))!;
    expect(create.body).toMatchObject({
      endpoint: '/v4/chat/completions',
      metadata: { zhi_skill: 'summarize' },
    });

    // Every file's first call went through the job (one line each, custom ids, no stream flag).
    expect(fake.batchBodies.map(markerOf).sort()).toEqual(ids);
    for (const b of fake.batchBodies) {
      expect(b.model).toBe('glm-4-air');
      expect(b.stream).toBeUndefined();
      expect(b.tools.map((t: { function: { name: string } }) => t.function.name)).toContain('file_write');
    }
    // The written file is summarize's answer: each file ends with its batch answer, nothing online.
    expect(liveCalls()).toHaveLength(0);
    for (const id of ids) {
      expect(readFileSync(join(work, 'zhi-output', `${id}-summary.md`), 'utf8')).toBe(`Summary of ${id}\n`);
    }
    expect(r.stdout).toContain('Summary of b2');

    const m = manifestOf();
    expect(m.batch).toBeUndefined();
    expect(m.files['b1.txt']).toMatchObject({ status: 'done', batch: true });

    // The ledger: batch calls at half the online price of the same tokens.
    const ledger = readFileSync(join(home, 'usage.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const batch = ledger.filter((e) => e.batch);
    expect(batch).toHaveLength(3);
    for (const e of batch) {
      const tokens = { promptTokens: e.prompt, completionTokens: e.completion, cachedTokens: e.cached };
      const online = costOf('glm-4-air', tokens, PLATFORMS.bigmodel).amount;
      expect(online).toBeGreaterThan(0);
      expect(e.cost).toBeCloseTo(online / 2, 12);
    }
    // No online call, so nothing billed at the full price.
    const live = ledger.filter((e) => !e.batch && e.model === 'glm-4-air');
    expect(live).toHaveLength(0);
  });

  it('survives closing the terminal: the job id is in the manifest, `zhi batch status` and `results` finish it', async () => {
    const ids = makeFolder(2);
    fake.batchPolls = 1_000_000;
    const child = spawn(process.execPath, [ZHI_BIN, 'run', 'summarize', 'docs', '--auto', '--batch'], {
      cwd: work,
      env: testEnv({ baseUrl: fake.baseUrl, home, env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    await pollUntil(() => stderr.includes('in progress'));
    child.kill('SIGKILL');
    await new Promise((r) => child.on('close', r));
    const id = manifestOf().batch.id as string;
    expect(id).toMatch(/^batch_/);
    expect([...fake.batches.keys()]).toEqual([id]);

    const status = await zhi(['batch', 'status', id]);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`${id}  in progress  0/2 answered`);
    expect(status.stdout).toContain('zhi run summarize docs --batch');

    const list = await zhi(['batch', 'list']);
    expect(list.stdout).toContain(id);

    fake.batchPolls = 0;
    const results = await zhi(['batch', 'results', id, '--auto']);
    expect(results.code).toBe(0);
    // No second job: the same one was collected.
    expect(fake.batches.size).toBe(1);
    for (const id2 of ids) expect(existsSync(join(work, 'zhi-output', `${id2}-summary.md`))).toBe(true);
    expect(liveCalls().every((q) => q.body.messages.at(-1).role === 'tool')).toBe(true);
  });

  it('after a complete run, a --batch --force stopped while it waits: `zhi batch results` uses the answers and counts them', async () => {
    const ids = makeFolder(2);
    expect((await zhi(['run', 'summarize', 'docs', '--auto'])).code).toBe(0);
    fake.reset();
    fake.fallback = responder;
    fake.batchPolls = 1_000_000;
    const child = spawn(
      process.execPath,
      [ZHI_BIN, 'run', 'summarize', 'docs', '--auto', '--batch', '--force', '--jobs', '7'],
      {
        cwd: work,
        env: testEnv({ baseUrl: fake.baseUrl, home, env }),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    await pollUntil(() => stderr.includes('in progress'));
    child.kill('SIGINT');
    await new Promise((r) => child.on('close', r));
    const id = manifestOf().batch.id as string;
    // Kept with the job: `zhi batch results` makes any online calls as many at once as this run.
    expect(manifestOf().batch.jobs).toBe(7);

    fake.batchPolls = 0;
    const results = await zhi(['batch', 'results', id, '--auto']);
    expect(results.code).toBe(0);
    expect(results.stderr).not.toContain('Every file is already done');
    expect(fake.batches.size).toBe(1);
    // Every file's answer came from the job (its written file is the answer): nothing went online.
    expect(liveCalls()).toHaveLength(0);
    const m = manifestOf();
    for (const id2 of ids) expect(m.files[`${id2}.txt`]).toMatchObject({ status: 'done', batch: true });
    expect(m.batch).toBeUndefined();
  });

  it('a job whose files were all done since without it is said to be unused, and no longer tracked', async () => {
    makeFolder(2);
    expect((await zhi(['run', 'summarize', 'docs', '--auto'])).code).toBe(0);
    const dir = join(work, 'zhi-output', '.zhi-runs');
    const path = join(dir, readdirSync(dir).find((n) => n.endsWith('.json'))!);
    const m = JSON.parse(readFileSync(path, 'utf8'));
    m.batch = { id: 'batch_old', model: 'glm-4-flash', createdAt: '', requests: {}, status: 'in_progress' };
    writeFileSync(path, JSON.stringify(m));
    const r = await zhi(['run', 'summarize', 'docs', '--auto']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('The batch job batch_old was not used');
    expect(r.stderr).toContain('zhi batch cancel batch_old');
    expect(manifestOf().batch).toBeUndefined();
  });

  it('refuses to batch a skill that must ask a person, before submitting anything', async () => {
    makeFolder(1);
    mkdirSync(join(home, 'skills'), { recursive: true });
    writeFileSync(
      join(home, 'skills', 'runner.yaml'),
      'name: runner\ndescription: Runs a command\nsystem_prompt: Run it.\ntools: [shell]\ninput:\n  args:\n    - name: file\n      type: file\n',
    );
    const r = await zhi(['run', 'runner', 'docs', '--batch']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot run as a batch job/);
    expect(fake.requests.some((q) => q.path.endsWith('/files'))).toBe(false);
  });

  it('zhi batch cancel <id>', async () => {
    makeFolder(1);
    fake.batchPolls = 1_000_000;
    const child = spawn(process.execPath, [ZHI_BIN, 'run', 'summarize', 'docs', '--auto', '--batch'], {
      cwd: work,
      env: testEnv({ baseUrl: fake.baseUrl, home, env }),
      stdio: ['ignore', 'ignore', 'ignore'],
    });
    await pollUntil(() => fake.batches.size);
    child.kill('SIGKILL');
    const id = [...fake.batches.keys()][0]!;
    const r = await zhi(['batch', 'cancel', id]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${id}  cancelling`);
  });
});
