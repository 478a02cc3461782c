import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RecordedRequest, Reply } from '../fake-zhipu/server.js';
import { useE2E } from '../helpers/e2e.js';
import { markerOf } from '../helpers/requests.js';
import { pollUntil, testEnv, ZHI_BIN } from '../helpers/zhi.js';

const e = useE2E();
const { fake } = e;
let work: string;
beforeEach(() => {
  fake.fallback = responder;
  ({ cwd: work } = e);
});

function responder(req: RecordedRequest): Reply {
  const id = markerOf(req.body);
  if (req.body.messages.at(-1).role === 'user')
    return {
      kind: 'tools',
      calls: [{ name: 'file_write', arguments: { path: `${id}.md`, content: `S ${id}` } }],
    };
  return { kind: 'text', text: `S ${id}` };
}

function makeFolder(n: number): void {
  mkdirSync(join(work, 'docs'), { recursive: true });
  for (let k = 1; k <= n; k++) writeFileSync(join(work, 'docs', `d${k}.txt`), `Doc MARKER-d${k}\n`);
}

const firstCalls = () =>
  fake
    .chatBodies()
    .filter((b) => b.messages.at(-1).role === 'user')
    .map(markerOf)
    .sort();

describe('one run per folder', () => {
  it('a second run on the same folder says who holds it and stops; with --wait it waits and does nothing twice', async () => {
    makeFolder(6);
    // The first run's calls wait until this test lets them end, so the second run meets a live
    // lock however slowly it starts (a fixed latency raced the second start on a loaded machine).
    let release = () => {};
    fake.hold = new Promise<void>((r) => {
      release = r;
    });
    const first = spawn(process.execPath, [ZHI_BIN, 'run', 'summarize', 'docs', '--auto', '--jobs', '2'], {
      cwd: work,
      env: testEnv({ baseUrl: fake.baseUrl, home: e.home }),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const ended = new Promise((r) => first.on('close', r));
    const runs = join(work, 'zhi-output', '.zhi-runs');
    await pollUntil(() => existsSync(runs) && readdirSync(runs).some((n) => n.endsWith('.lock')));
    const second = await e.zhi(['run', 'summarize', 'docs', '--auto']);
    expect(second.code).toBe(2);
    expect(second.stderr).toContain('Another zhi is already running this skill on docs');
    expect(second.stderr).toContain(`process ${first.pid} on ${hostname()}`);
    expect(second.stderr).toContain('--wait');

    // --wait started while the lock is held (or, on a slow machine, after it ends): either way it
    // must end with nothing done twice.
    const waiting = e.zhi(['run', 'summarize', 'docs', '--auto', '--wait'], { timeoutMs: 60_000 });
    setTimeout(release, 1000);
    const waited = await waiting;
    await ended;
    expect(waited.code).toBe(0);
    expect(waited.stderr).toContain('Every file is already done');
    // Each file's first call was made once, by the first run.
    expect(firstCalls()).toEqual(['d1', 'd2', 'd3', 'd4', 'd5', 'd6']);
    expect(readdirSync(runs).some((n) => n.endsWith('.lock'))).toBe(false);
  });

  it('a stale lock of a killed process is taken over', async () => {
    makeFolder(2);
    expect((await e.zhi(['run', 'summarize', 'docs', '--auto'])).code).toBe(0);
    const runs = join(work, 'zhi-output', '.zhi-runs');
    const record = readdirSync(runs).find((n) => n.endsWith('.json'))!;
    const dead = spawn(process.execPath, ['-e', '0']);
    await new Promise((r) => dead.on('close', r));
    writeFileSync(
      join(runs, `${record}.lock`),
      JSON.stringify({ pid: dead.pid, host: hostname(), startedAt: new Date().toISOString() }),
    );
    writeFileSync(join(work, 'docs', 'd3.txt'), 'Doc MARKER-d3\n');
    const r = await e.zhi(['run', 'summarize', 'docs', '--auto']);
    expect(r.code).toBe(0);
    expect(firstCalls()).toEqual(['d1', 'd2', 'd3']);
    expect(readdirSync(runs).filter((n) => n.includes('.lock'))).toEqual([]);
  });
});
