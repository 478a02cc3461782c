import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listSessions } from '../../src/agent/sessions/listing.js';
import { loadSession } from '../../src/agent/sessions/store.js';
import { openTestSession } from '../helpers/session.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

const dirs: string[] = [];
afterEach(() => cleanup(...dirs.splice(0)));
const folder = () => {
  const d = tempDir('zhi-pending-');
  dirs.push(d);
  return d;
};

/** A process id that is certainly gone: a child that ran and exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

describe('a session file made ahead of its first message', () => {
  it('waits in .pending/ (no listing sees it) and moves into place with the first line', async () => {
    const dir = folder();
    const rec = openTestSession(dir);
    rec.prepare();
    const pending = join(dir, '.pending');
    expect(readdirSync(pending)).toHaveLength(1);
    expect(existsSync(rec.file)).toBe(false);
    expect((await listSessions(dir)).length).toBe(0);
    rec.consume({ type: 'user', message: { role: 'user', content: 'hello' } });
    expect(readdirSync(pending)).toEqual([]);
    const types = readFileSync(rec.file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).type);
    expect(types[0]).toBe('session');
    expect(types).toContain('message');
    expect(types.filter((t) => t === 'session')).toHaveLength(1);
    rec.close();
    expect((await listSessions(dir)).map((s) => s.id)).toEqual([rec.id]);
  });

  it('leaving without a message leaves no session and no file', () => {
    const dir = folder();
    const rec = openTestSession(dir);
    rec.prepare();
    rec.close();
    expect(readdirSync(join(dir, '.pending'))).toEqual([]);
    expect(readdirSync(dir).filter((f) => f.endsWith('.jsonl'))).toEqual([]);
  });

  it("one left by a killed zhi is removed by the next prepare; a running zhi's is kept", () => {
    const dir = folder();
    const pending = join(dir, '.pending');
    mkdirSync(pending, { recursive: true });
    const dead = `${deadPid()}-20260101-000000-abcd.jsonl`;
    const alive = `${process.ppid}-20260101-000000-ef01.jsonl`;
    writeFileSync(join(pending, dead), '{"type":"session"}\n');
    writeFileSync(join(pending, alive), '{"type":"session"}\n');
    const rec = openTestSession(dir);
    rec.prepare();
    expect(readdirSync(pending).sort()).toEqual([alive, `${process.pid}-${rec.id}.jsonl`].sort());
    rec.close();
  });

  it('a resumed session appends to its own file: nothing is made ahead', async () => {
    const dir = folder();
    const first = openTestSession(dir);
    first.consume({ type: 'user', message: { role: 'user', content: 'hello' } });
    first.close();
    const again = openTestSession(dir, { resume: (await loadSession(first.file))! });
    again.prepare();
    expect(existsSync(join(dir, '.pending')) ? readdirSync(join(dir, '.pending')) : []).toEqual([]);
    again.close();
  });
});
