/**
 * `zhi watch <folder> <skill>` (issue 41 point 4), the built binary against the fake API: the
 * files already there first, then files as they arrive — one still being written is read only
 * once complete, a renamed one is done under its new name, a deleted one is not tried — with one
 * run record; Ctrl+C ends it cleanly; a watch killed with SIGKILL mid-round is taken up by the
 * next one with nothing lost; a round with nothing new is not run at all.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import {
  appendFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { pollUntil, testEnv, ZHI_BIN } from '../helpers/zhi.js';

const e = useE2E();

const NOTE_SKILL = `name: note
description: one line about a file
system_prompt: Say one line about the document.
tools: []
input:
  args:
    - name: file
      type: file
      required: true
`;

interface Watch {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exited: Promise<number | null>;
}

function watch(env: Record<string, string> = {}): Watch {
  const child = spawn(process.execPath, [ZHI_BIN, 'watch', 'inbox', 'note'], {
    cwd: e.cwd,
    env: testEnv({ baseUrl: e.fake.baseUrl, home: e.home, env: { ZHI_WATCH_POLL_MS: '150', ...env } }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  return { child, out: () => out, err: () => err, exited };
}

function record(): { files: Record<string, { status: string; size: number }> } {
  const runs = join(e.cwd, 'zhi-output', '.zhi-runs');
  const name = readdirSync(runs).find((f) => f.endsWith('.json'));
  return JSON.parse(readFileSync(join(runs, name!), 'utf8'));
}

const waits = (w: Watch) => w.err().split('Waiting for new or changed files').length - 1;
/** The documents the model was sent, by their text. */
const sent = () => e.fake.chatRequests().map((r) => JSON.stringify(r.body.messages));

function setUp(files: number): void {
  mkdirSync(join(e.home, 'skills'), { recursive: true });
  writeFileSync(join(e.home, 'skills', 'note.yaml'), NOTE_SKILL);
  mkdirSync(join(e.cwd, 'inbox'));
  for (let i = 1; i <= files; i++) writeFileSync(join(e.cwd, 'inbox', `old-${i}.txt`), `old document ${i}`);
}

describe('zhi watch', () => {
  it('does what is there, then each arrival once complete; renamed and deleted files as they are; Ctrl+C ends it', async () => {
    setUp(3);
    const w = watch();
    await pollUntil(() => waits(w) === 1);
    expect(Object.keys(record().files).sort()).toEqual(['old-1.txt', 'old-2.txt', 'old-3.txt']);
    const firstRound = e.fake.chatRequests().length;

    // Arrivals: twenty files, one written in two pieces, one renamed, one deleted.
    for (let i = 1; i <= 20; i++) writeFileSync(join(e.cwd, 'inbox', `new-${i}.txt`), `new document ${i}`);
    writeFileSync(join(e.cwd, 'inbox', 'growing.txt'), 'first half, ');
    await new Promise((r) => setTimeout(r, 60));
    appendFileSync(join(e.cwd, 'inbox', 'growing.txt'), 'second half.');
    renameSync(join(e.cwd, 'inbox', 'old-1.txt'), join(e.cwd, 'inbox', 'renamed.txt'));
    rmSync(join(e.cwd, 'inbox', 'old-2.txt'));
    writeFileSync(join(e.cwd, 'inbox', '~$lock.docx'), 'office lock file');
    await pollUntil(() => waits(w) === 2);

    const files = record().files;
    for (let i = 1; i <= 20; i++) expect(files[`new-${i}.txt`]?.status).toBe('done');
    expect(files['growing.txt']).toMatchObject({ status: 'done', size: 'first half, second half.'.length });
    expect(files['renamed.txt']?.status).toBe('done');
    // The growing file is recorded done as complete (read whole: had a round caught it half-way,
    // the change would have been done again); the deleted one was not tried; the lock file skipped.
    expect(sent().some((m) => m.includes('first half, second half.'))).toBe(true);
    expect(sent().some((m) => m.includes('office lock file'))).toBe(false);
    expect(e.fake.chatRequests().length - firstRound).toBeGreaterThanOrEqual(22);
    expect(sent().filter((m) => m.includes('old document 2')).length).toBe(1);

    // Nothing new: no round is started however long it waits.
    await new Promise((r) => setTimeout(r, 700));
    expect(waits(w)).toBe(2);
    w.child.kill('SIGINT');
    expect(await w.exited).toBe(0);
    expect(w.err()).toContain('Stopped watching inbox after 2 round(s)');
  });

  it('a watch killed with SIGKILL mid-round is taken up by the next one: every file done, none lost', async () => {
    setUp(0);
    e.fake.latencyMs = 150;
    const w = watch();
    await pollUntil(() => waits(w) === 1);
    for (let i = 1; i <= 12; i++) writeFileSync(join(e.cwd, 'inbox', `doc-${i}.txt`), `document ${i}`);
    await pollUntil(() => w.err().includes('✓'));
    w.child.kill('SIGKILL');
    await w.exited;
    e.fake.latencyMs = 0;

    const again = watch();
    await pollUntil(() => waits(again) === 1);
    again.child.kill('SIGINT');
    expect(await again.exited).toBe(0);
    const files = record().files;
    for (let i = 1; i <= 12; i++) expect(files[`doc-${i}.txt`]?.status, `doc-${i}`).toBe('done');
  });

  it.each([
    'en',
    'zh',
  ] as const)('says what is wrong with a file instead of a folder, or --batch (%s)', async (lang) => {
    setUp(1);
    const env = { ZHI_LANGUAGE: lang };
    const file = await e.zhi(['watch', 'inbox/old-1.txt', 'note'], { env });
    expect(file.code).toBe(2);
    expect(file.stderr).toContain(
      lang === 'en' ? 'is not a folder zhi can watch' : '不是 zhi 能监视的文件夹',
    );
    const batch = await e.zhi(['watch', 'inbox', 'note', '--batch'], { env });
    expect(batch.code).toBe(2);
    expect(batch.stderr).toContain(
      lang === 'en' ? 'zhi watch does not take --batch' : 'zhi watch 不接受 --batch',
    );
    expect(e.fake.chatRequests()).toHaveLength(0);
  });
});
