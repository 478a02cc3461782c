import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RecordedRequest, Reply } from '../fake-zhipu/server.js';
import { useE2E } from '../helpers/e2e.js';
import { markerOf } from '../helpers/requests.js';
import { pollUntil } from '../helpers/zhi.js';

const e = useE2E();
const { fake } = e;
let work: string;
beforeEach(() => {
  fake.fallback = responder;
  ({ cwd: work } = e);
});

const env = { ZHI_BATCH_POLL_MS: '20', ZHI_RETRY_BASE_MS: '50' };
const zhi = (args: string[], more: Record<string, string> = {}) =>
  e.zhi(args, { env: { ...env, ...more }, timeoutMs: 60_000 });

function responder(req: RecordedRequest): Reply {
  const id = markerOf(req.body);
  if (req.body.messages.at(-1).role === 'user')
    return {
      kind: 'tools',
      calls: [{ name: 'file_write', arguments: { path: `${id}.md`, content: `S ${id}` } }],
    };
  return { kind: 'text', text: `Summary of ${id}, written to ${id}.md.` };
}

function makeFolder(n: number, pad = 0): string[] {
  mkdirSync(join(work, 'docs'), { recursive: true });
  return Array.from({ length: n }, (_, k) => {
    const id = `f${k + 1}`;
    writeFileSync(join(work, 'docs', `${id}.txt`), `Doc MARKER-${id}\n${'x'.repeat(pad)}\n`);
    return id;
  });
}

const manifestOf = () => {
  const dir = join(work, 'zhi-output', '.zhi-runs');
  return JSON.parse(readFileSync(join(dir, readdirSync(dir).find((n) => n.endsWith('.json'))!), 'utf8'));
};
const outputs = () =>
  existsSync(join(work, 'zhi-output'))
    ? readdirSync(join(work, 'zhi-output'))
        .filter((n) => n.endsWith('.md'))
        .sort()
    : [];

describe('faults wait, not fail', () => {
  it('a run with mid-answer drops and an outage of the server finishes in one go', async () => {
    const ids = makeFolder(10);
    fake.dropEvery = 4;
    fake.latencyMs = 100;
    const run = zhi(['run', 'summarize', 'docs', '--auto', '--jobs', '2']);
    // Once the first file is written, the server goes away for 2.5 s (connections refused).
    await pollUntil(() => outputs().length);
    await fake.outage(2500);
    const r = await run;
    expect(fake.dropped).toBeGreaterThan(0);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('The API could not be reached for several calls in a row');
    // The files put back during the outage are not said one by one (the pause line says it).
    expect(r.stderr.match(/Trying it again/g)?.length ?? 0).toBeLessThan(4);
    expect(r.stderr).toContain('The API answers again: the run goes on.');
    expect(outputs()).toEqual(ids.map((id) => `${id}.md`).sort());
    const m = manifestOf();
    for (const id of ids) expect(m.files[`${id}.txt`].status).toBe('done');
  });
});

describe('--batch within the API limits', () => {
  it('inputs over one input file limit are split into several jobs; all answers are used', async () => {
    const ids = makeFolder(6, 3000);
    fake.batchMaxBytes = 8000;
    const r = await zhi(['run', 'summarize', 'docs', '--auto', '--batch'], { ZHI_BATCH_MAX_BYTES: '8000' });
    expect(r.code).toBe(0);
    expect(fake.batches.size).toBeGreaterThan(1);
    for (const b of fake.batches.values()) expect(b.lines.join('\n').length).toBeLessThanOrEqual(8000);
    expect(fake.batchBodies.map(markerOf).sort()).toEqual([...ids].sort());
    const m = manifestOf();
    for (const id of ids) expect(m.files[`${id}.txt`]).toMatchObject({ status: 'done', batch: true });
    expect(m.batch).toBeUndefined();
  });

  it('an expired job gives what it answered; the rest is done online, said once', async () => {
    const ids = makeFolder(4);
    fake.batchEnd = 'expired';
    const r = await zhi(['run', 'summarize', 'docs', '--auto', '--batch']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/ended "expired" with 2 answered: those answers are used; its other 2 files/);
    const m = manifestOf();
    const batched = ids.filter((id) => m.files[`${id}.txt`].batch);
    expect(batched).toHaveLength(2);
    for (const id of ids) expect(m.files[`${id}.txt`].status).toBe('done');
    expect(outputs()).toEqual(ids.map((id) => `${id}.md`).sort());
  });
});

describe('one concurrency budget per run', () => {
  it('long documents in a folder run share the run’s --jobs: parts never multiply the calls at once', async () => {
    mkdirSync(join(work, 'long'), { recursive: true });
    for (let f = 1; f <= 3; f++) {
      const pages = Array.from(
        { length: 300 },
        (_, i) => `--- page ${i + 1} ---\nDOC-${f} ${'The contract clause text goes on here. '.repeat(16)}`,
      );
      writeFileSync(join(work, 'long', `c${f}.txt`), pages.join('\n'));
    }
    fake.latencyMs = 60;
    let written = 0;
    fake.fallback = (req): Reply => {
      if (/This run handles part \d+ of \d+/.test(req.body.messages[0].content))
        return { kind: 'text', text: 'part summary' };
      // Each combining run writes a name of its own (a taken name would leave a file unwritten).
      if (req.body.messages.at(-1).role === 'user')
        return {
          kind: 'tools',
          calls: [{ name: 'file_write', arguments: { path: `c${++written}.md`, content: 'S' } }],
        };
      return { kind: 'text', text: 'done' };
    };
    const r = await zhi(['run', 'summarize', 'long', '--auto', '--jobs', '2']);
    expect(r.code).toBe(0);
    expect(fake.chatBodies().length).toBeGreaterThan(8);
    expect(fake.maxInFlight).toBeLessThanOrEqual(2);
  });
});
