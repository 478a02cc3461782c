/**
 * `each:` steps of composite skills (daily-digest: summarize on every document of a folder) run
 * in the same bounded pool as folder runs: several at once with --jobs, results in the folder's
 * order, slower after a 1302 storm without failing a step, and stopped cleanly by a 1113.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RecordedRequest, Reply } from '../fake-zhipu/server.js';
import { useFakeZhipu } from '../helpers/fake.js';
import { cleanup, pollUntil, runZhi, tempDir, testEnv, ZHI_BIN } from '../helpers/zhi.js';

let home: string;
let work: string;

const fake = useFakeZhipu();
beforeEach(() => {
  fake.reset();
  fake.latencyMs = 0;
  fake.concurrencyLimit = 0;
  fake.fallback = digestResponder;
  home = tempDir('zhi-home-');
  work = tempDir('zhi-work-');
  return () => cleanup(home, work);
});

const zhi = (args: string[]) =>
  runZhi({ args: [...args, '--auto'], baseUrl: fake.baseUrl, home, cwd: work, timeoutMs: 60_000 });

const isDigest = (req: RecordedRequest) =>
  String(req.body.messages[0].content).startsWith('You write a daily digest');
const userOf = (req: RecordedRequest) => String(req.body.messages[1]?.content ?? '');

/** summarize answers with the document's marker; the digest writes its file, then answers. */
function digestResponder(req: RecordedRequest): Reply {
  if (!isDigest(req)) return { kind: 'text', text: `- Point of ${/MARKER-(\w+)/.exec(userOf(req))?.[1]}` };
  if (req.body.messages.at(-1).role === 'user')
    return {
      kind: 'tools',
      calls: [{ name: 'file_write', arguments: { path: 'digest.md', content: '# Digest' } }],
    };
  return { kind: 'text', text: '# Digest' };
}

function makeFolder(n: number): string[] {
  mkdirSync(join(work, 'today'));
  const ids = Array.from({ length: n }, (_, i) => `d${String(i + 1).padStart(2, '0')}`);
  for (const id of ids) writeFileSync(join(work, 'today', `${id}.md`), `Notes MARKER-${id}\n`);
  return ids;
}

const summarizeCalls = () =>
  fake.requests.filter((r) => r.path.endsWith('/chat/completions') && !isDigest(r));
const digestCalls = () => fake.requests.filter((r) => r.path.endsWith('/chat/completions') && isDigest(r));

describe('each: steps run in the folder pool', () => {
  it('runs the steps --jobs at once and hands the results on in folder order', async () => {
    const ids = makeFolder(12);
    fake.latencyMs = 200;
    const r = await zhi(['run', 'daily-digest', 'today', '--jobs', '4']);
    expect(r.code).toBe(0);
    // During the steps 4 calls were in flight at once, never more.
    expect(fake.maxInFlight).toBe(4);
    expect(summarizeCalls()).toHaveLength(12);
    const first = userOf(digestCalls()[0]!);
    const order = [...first.matchAll(/<result file="today\/(d\d+)\.md">\n- Point of (d\d+)/g)];
    expect(order.map((m) => m[1])).toEqual(ids);
    // Each result is its own file's, whatever order the steps ended in.
    for (const m of order) expect(m[2]).toBe(m[1]);
    expect(r.stderr).toContain('[12/12]');
    // One line per file: the step's skill and model are said once, not under every file.
    expect(r.stderr.match(/› summarize/g)).toHaveLength(1);
  });

  it('a 1302 storm slows the steps down without failing one', async () => {
    makeFolder(10);
    fake.latencyMs = 40;
    fake.concurrencyLimit = 2;
    const r = await zhi(['run', 'daily-digest', 'today', '--jobs', '6']);
    expect(fake.refused).toBeGreaterThan(0);
    expect(r.code).toBe(0);
    const first = userOf(digestCalls()[0]!);
    expect(first).not.toContain('failed="true"');
    expect([...first.matchAll(/<result file=/g)]).toHaveLength(10);
  });

  it('a 1113 (no balance) stops the other steps and the run, with a clear error', async () => {
    makeFolder(10);
    let calls = 0;
    fake.fallback = (req) => {
      calls += 1;
      if (calls > 3)
        return { kind: 'error', status: 429, code: '1113', message: '余额不足或无可用资源包,请充值。' };
      return digestResponder(req);
    };
    const r = await zhi(['run', 'daily-digest', 'today', '--jobs', '2']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/balance/i);
    // Nothing more started once the balance ran out, and the digest itself was never asked for.
    expect(summarizeCalls().length).toBeLessThanOrEqual(6);
    expect(digestCalls()).toHaveLength(0);
  });

  it('a run killed after 3 of 6 steps is redone for the other 3 only; --force redoes all', async () => {
    makeFolder(6);
    const markerOf = (req: RecordedRequest) => /MARKER-(\w+)/.exec(userOf(req))?.[1] ?? '';
    let release = () => {};
    let answered = 0;
    fake.fallback = (req) => {
      // Once 3 steps are answered every later call waits: the kill catches the 4th in flight.
      if (!isDigest(req) && ++answered === 3) fake.hold = new Promise((r) => (release = r));
      return digestResponder(req);
    };
    const child = spawn(
      process.execPath,
      [ZHI_BIN, 'run', 'daily-digest', 'today', '--auto', '--jobs', '1'],
      {
        cwd: work,
        env: testEnv({ baseUrl: fake.baseUrl, home }),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    // The run record (its manifest and journal) says 3 steps are done: kill it, no chance to clean up.
    const recorded = () => {
      const done = new Set<string>();
      for (const f of readdirSync(work, { recursive: true }).map(String)) {
        if (!/\.each-today-\w+\.json(\.journal)?$/.test(f)) continue;
        const text = readFileSync(join(work, f), 'utf8');
        if (f.endsWith('.json')) {
          const files = JSON.parse(text).files as Record<string, { status: string }>;
          for (const [rel, e] of Object.entries(files)) if (e.status === 'done') done.add(rel);
        } else
          for (const l of text.split('\n'))
            if (l.includes('"status":"done"')) done.add(JSON.parse(l).rel as string);
      }
      return done.size;
    };
    await pollUntil(() => recorded() >= 3);
    child.kill('SIGKILL');
    await new Promise((r) => child.on('close', r));
    release();
    const first = summarizeCalls().map(markerOf);
    expect(first.slice(0, 3).sort()).toEqual(['d01', 'd02', 'd03']);
    expect(digestCalls()).toHaveLength(0);

    fake.reset();
    fake.fallback = digestResponder;
    const again = await zhi(['run', 'daily-digest', 'today']);
    expect(again.code).toBe(0);
    // Only the steps not done were asked again; the digest got all 6 results, in folder order.
    expect(summarizeCalls().map(markerOf).sort()).toEqual(['d04', 'd05', 'd06']);
    expect(again.stderr).toContain('3 of 6 files already done by an earlier run');
    const digest = userOf(digestCalls()[0]!);
    const order = [...digest.matchAll(/<result file="today\/(d\d+)\.md">\n- Point of (d\d+)/g)];
    expect(order.map((m) => [m[1], m[2]])).toEqual(
      ['d01', 'd02', 'd03', 'd04', 'd05', 'd06'].map((id) => [id, id]),
    );

    fake.reset();
    fake.fallback = digestResponder;
    const forced = await zhi(['run', 'daily-digest', 'today', '--force']);
    expect(forced.code).toBe(0);
    expect(summarizeCalls().map(markerOf).sort()).toEqual(['d01', 'd02', 'd03', 'd04', 'd05', 'd06']);
  });
});
