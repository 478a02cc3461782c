import { appendFileSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SessionHeader, serialiseLine } from '../../src/agent/sessions/format.js';
import { INDEX_FILE, indexedSessions, newestIndexed } from '../../src/agent/sessions/index-file.js';
import { latestSession, listSessions } from '../../src/agent/sessions/listing.js';
import { openSession } from '../../src/agent/sessions/recorder.js';
import { PLATFORMS } from '../../src/llm/platforms.js';
import type { Message } from '../../src/llm/types.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

let dir: string;
beforeEach(() => {
  dir = tempDir('zhi-index-');
});
afterEach(() => cleanup(dir));

function session(id: string, title: string, cwd = '/work/docs', answer = 'ok'): string {
  const header: SessionHeader = {
    type: 'session',
    v: 1,
    id,
    created: '2026-03-14T07:30:45.000Z',
    cwd,
    model: 'glm-5',
    kind: 'repl',
    platform: 'bigmodel',
    currency: 'CNY',
    zhi: 'test',
  };
  const msg = (m: Message) =>
    serialiseLine({ type: 'message', role: m.role, t: '2026-03-14T07:31:00.000Z', message: m });
  const file = join(dir, `${id}.jsonl`);
  writeFileSync(
    file,
    serialiseLine(header) +
      msg({ role: 'user', content: title }) +
      msg({ role: 'assistant', content: answer }),
  );
  return file;
}

const indexText = () => readFileSync(join(dir, INDEX_FILE), 'utf8');

describe('session index', () => {
  it('is built on the first listing and then answers without reading unchanged files', async () => {
    session('20260101-100000-aaaa', '季度报告');
    const b = session('20260102-100000-bbbb', 'translate the contract');
    const when = new Date('2026-03-14T08:00:00Z');
    utimesSync(b, when, when);
    expect((await listSessions(dir)).map((s) => s.title).sort()).toEqual([
      'translate the contract',
      '季度报告',
    ]);
    expect(indexText()).toContain('季度报告');
    // Replace a file's content but keep its size and time: the index is trusted, the file not read.
    writeFileSync(b, readFileSync(b, 'utf8').replace('translate', 'TRANSLATE'));
    utimesSync(b, when, when);
    expect((await listSessions(dir)).map((s) => s.title)).toContain('translate the contract');
  });

  it('re-reads a session whose file changed, and forgets one that was deleted', async () => {
    const a = session('20260101-100000-aaaa', 'first');
    const b = session('20260102-100000-bbbb', 'second');
    await listSessions(dir);
    appendFileSync(
      a,
      serialiseLine({ type: 'message', role: 'user', t: 'x', message: { role: 'user', content: 'more' } }),
    );
    utimesSync(a, new Date(), new Date(Date.now() + 5000));
    rmSync(b);
    const list = await listSessions(dir);
    expect(list.map((s) => [s.id, s.turns])).toEqual([['20260101-100000-aaaa', 2]]);
  });

  it('survives a missing, damaged or foreign index', async () => {
    session('20260101-100000-aaaa', 'first');
    await listSessions(dir);
    rmSync(join(dir, INDEX_FILE));
    expect((await listSessions(dir)).length).toBe(1);
    writeFileSync(join(dir, INDEX_FILE), `${indexText()}{"id":"20260101-100000-aaaa","si`);
    expect((await listSessions(dir)).map((s) => s.title)).toEqual(['first']);
    writeFileSync(join(dir, INDEX_FILE), 'not an index\n{"id":"x","size":1}\n');
    expect((await listSessions(dir)).map((s) => s.id)).toEqual(['20260101-100000-aaaa']);
  });

  it('is rewritten once it has grown well past the sessions it lists', () => {
    session('20260101-100000-aaaa', 'first');
    const stale = JSON.stringify({ id: 'gone', size: 1, mtimeMs: 1 });
    writeFileSync(join(dir, INDEX_FILE), `{"v":1}\n${`${stale}\n`.repeat(200)}`);
    expect(indexedSessions(dir).length).toBe(1);
    expect(indexText().split('\n').filter(Boolean).length).toBe(2);
  });

  it('searches the files only of sessions whose title does not match', async () => {
    session('20260101-100000-aaaa', '合同审查', '/work/docs', 'nothing');
    session('20260102-100000-bbbb', 'hello', '/work/docs', '这份合同的第三条');
    session('20260103-100000-cccc', 'other', '/elsewhere', 'no');
    expect((await listSessions(dir, { query: '合同' })).map((s) => s.id)).toEqual([
      '20260102-100000-bbbb',
      '20260101-100000-aaaa',
    ]);
    expect((await latestSession(dir, '/elsewhere'))?.id).toBe('20260103-100000-cccc');
  });

  it('gets a line from a session when it closes', () => {
    const rec = openSession({
      kind: 'oneshot',
      sessionsDir: dir,
      cwd: '/work',
      model: 'glm-5',
      platform: PLATFORMS.bigmodel,
    });
    rec.consume({ type: 'user', message: { role: 'user', content: '总结这份文件' } });
    // While it writes, its line says it is live (the index must read its file, not trust a line).
    expect(JSON.parse(indexText().split('\n')[1]!)).toMatchObject({ id: rec.id, live: true, size: -1 });
    rec.close();
    const line = indexText().split('\n').filter(Boolean).at(-1)!;
    expect(JSON.parse(line)).toMatchObject({ id: rec.id, title: '总结这份文件', turns: 1, kind: 'oneshot' });
    expect(JSON.parse(line).live).toBeUndefined();
  });
});

describe('the latest session (--continue) from the index', () => {
  const at = (file: string, iso: string) => utimesSync(file, new Date(iso), new Date(iso));
  const record = (cwd: string, text: string) => {
    const rec = openSession({
      kind: 'repl',
      sessionsDir: dir,
      cwd,
      model: 'glm-5',
      platform: PLATFORMS.bigmodel,
    });
    rec.consume({ type: 'user', message: { role: 'user', content: text } });
    return rec;
  };

  it('is the newest conversation of the folder, taken from the index for closed sessions', async () => {
    at(session('20260101-100000-aaaa', 'old', '/work/docs'), '2026-03-01T00:00:00Z');
    at(session('20260102-100000-bbbb', 'newest here', '/work/docs'), '2026-03-03T00:00:00Z');
    at(session('20260103-100000-cccc', 'newer elsewhere', '/elsewhere'), '2026-03-05T00:00:00Z');
    await listSessions(dir);
    const pick = newestIndexed(dir, (s) => s.cwd === '/work/docs');
    expect(pick !== 'unsure' && pick?.id).toBe('20260102-100000-bbbb');
    expect((await latestSession(dir, '/work/docs'))?.title).toBe('newest here');
    expect(await latestSession(dir, '/nowhere')).toBeUndefined();
  });

  it('reads a session that is still open (or crashed) instead of trusting its line', async () => {
    at(session('20260101-100000-aaaa', 'closed', '/work/docs'), '2026-03-01T00:00:00Z');
    await listSessions(dir);
    const live = record('/work/docs', 'still typing');
    // A listing in between re-reads it, and it stays live until it closes.
    await listSessions(dir);
    live.consume({ type: 'user', message: { role: 'user', content: 'second question' } });
    const pick = newestIndexed(dir, (s) => s.cwd === '/work/docs');
    expect(pick !== 'unsure' && [pick?.id, pick?.turns]).toEqual([live.id, 2]);
    live.close();
    expect((await latestSession(dir, '/work/docs'))?.id).toBe(live.id);
  });

  it('falls back to a listing when the index cannot tell, and is right all the same', async () => {
    expect(newestIndexed(dir, () => true)).toBe('unsure'); // no index yet
    const a = session('20260101-100000-aaaa', 'first', '/work/docs');
    at(a, '2026-03-01T00:00:00Z');
    at(session('20260102-100000-bbbb', 'second', '/work/docs'), '2026-03-02T00:00:00Z');
    await listSessions(dir);
    // The winner changed behind zhi's back: its line no longer matches the file.
    appendFileSync(
      join(dir, '20260102-100000-bbbb.jsonl'),
      serialiseLine({ type: 'message', role: 'user', t: 'x', message: { role: 'user', content: 'more' } }),
    );
    expect(newestIndexed(dir, () => true)).toBe('unsure');
    expect((await latestSession(dir, '/work/docs'))?.turns).toBe(2);
    // Many files the index has never seen (copied in): a listing rebuilds it.
    for (let i = 0; i < 25; i++) session(`20260201-10000${String(i).padStart(2, '0')}-dddd`, `copied ${i}`);
    expect(newestIndexed(dir, () => true)).toBe('unsure');
    expect((await latestSession(dir, '/work/docs'))?.title).toMatch(/^copied|second/);
  });
});

describe('`zhi sessions` (the newest shown) from the index', () => {
  const at = (file: string, iso: string) => utimesSync(file, new Date(iso), new Date(iso));
  // The folder as it was before the index was last written: nothing added, removed or renamed.
  const folderUnchanged = () => at(dir, '2026-01-01T00:00:00Z');
  const three = async () => {
    at(session('20260101-100000-aaaa', 'oldest'), '2026-03-01T00:00:00Z');
    at(session('20260102-100000-bbbb', 'middle'), '2026-03-02T00:00:00Z');
    at(session('20260103-100000-cccc', 'newest'), '2026-03-03T00:00:00Z');
    await listSessions(dir);
    folderUnchanged();
  };
  // Rewritten in place (same file, so the folder does not change), with a new time.
  const rewrite = (id: string, title: string, iso: string) => {
    const file = join(dir, `${id}.jsonl`);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/"content":"[^"]*"/, `"content":"${title}"`));
    at(file, iso);
  };

  it('does not check the files of sessions it will not show while the folder is unchanged', async () => {
    await three();
    rewrite('20260101-100000-aaaa', 'oldest, edited', '2026-02-01T00:00:00Z');
    const list = await listSessions(dir, { shown: 1 });
    expect(list.map((s) => s.title)).toEqual(['newest', 'middle', 'oldest']);
    // Without `shown` every file is checked, as before.
    expect((await listSessions(dir)).map((s) => s.title)).toContain('oldest, edited');
  });

  it('checks the sessions it shows: one changed in place is re-read and placed again', async () => {
    await three();
    rewrite('20260103-100000-cccc', 'newest, now older', '2026-02-15T00:00:00Z');
    const list = await listSessions(dir, { shown: 2 });
    expect(list.map((s) => s.title)).toEqual(['middle', 'oldest', 'newest, now older']);
    expect(list[0]!.file).toBe(join(dir, '20260102-100000-bbbb.jsonl'));
  });

  it('checks every file once the folder changed, then trusts the index again', async () => {
    await three();
    rewrite('20260101-100000-aaaa', 'oldest, edited', '2026-03-09T00:00:00Z');
    at(session('20260104-100000-dddd', 'added'), '2026-03-04T00:00:00Z');
    expect((await listSessions(dir, { shown: 1 })).map((s) => s.title)).toEqual([
      'oldest, edited',
      'added',
      'newest',
      'middle',
    ]);
    folderUnchanged();
    rewrite('20260102-100000-bbbb', 'middle, edited', '2026-02-20T00:00:00Z');
    expect((await listSessions(dir, { shown: 1 })).map((s) => s.title)).toContain('middle');
  });
});
