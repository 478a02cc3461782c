/**
 * Folder runs told truly to the last file (issue 42): a file is done only when its outputs are on
 * disk — at the end of the run and when a later run resumes — outputs never compete for a name,
 * and every reason said is the true one. Each case ends by checking every file recorded done has
 * its outputs on disk, byte for byte.
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RecordedRequest, Reply } from '../fake-zhipu/server.js';
import { useE2E } from '../helpers/e2e.js';
import { markerOf } from '../helpers/requests.js';

const e = useE2E();
const { fake } = e;
let work: string;
beforeEach(() => {
  fake.fallback = writer;
  ({ cwd: work } = e);
});

const zhi = (args: string[], env: Record<string, string> = {}) => e.zhi(args, { env, timeoutMs: 60_000 });

/** The name the model was told to use instead of the document's own, when two inputs share a stem. */
function nameOf(req: RecordedRequest): string {
  const user = String(req.body.messages.find((m: { role: string }) => m.role === 'user')?.content ?? '');
  return /use "([^"]+)" where you would use the document's name/.exec(user)?.[1] ?? markerOf(req.body);
}

/** Like a model that does its job: writes `<name>-summary.md` (the written file is the answer). */
function writer(req: RecordedRequest): Reply {
  const name = nameOf(req);
  if (req.body.messages.at(-1).role === 'user')
    return {
      kind: 'tools',
      calls: [
        { name: 'file_write', arguments: { path: `${name}-summary.md`, content: `Summary of ${name}` } },
      ],
    };
  return { kind: 'text', text: `Summary of ${name}` };
}

function makeFolder(n: number, dir = 'docs'): string[] {
  mkdirSync(join(work, dir), { recursive: true });
  return Array.from({ length: n }, (_, k) => {
    const id = `f${String(k + 1).padStart(3, '0')}`;
    writeFileSync(join(work, dir, `${id}.txt`), `Document MARKER-${id}\nSome text.\n`);
    return id;
  });
}

const chats = () => fake.requests.filter((r) => r.path.endsWith('/chat/completions'));
const firstCalls = () =>
  chats()
    .filter((r) => r.body.messages.length === 2)
    .map((r) => markerOf(r.body));

function manifest(): {
  files: Record<string, { status: string; error?: string; written?: { path: string; sha256: string }[] }>;
} {
  const dir = join(work, 'zhi-output', '.zhi-runs');
  const name = readdirSync(dir).find((n) => n.endsWith('.json'))!;
  return JSON.parse(readFileSync(join(dir, name), 'utf8'));
}

/** Every file recorded done has its outputs on disk, byte for byte. */
function expectDoneOnDisk(): number {
  let done = 0;
  for (const entry of Object.values(manifest().files)) {
    if (entry.status !== 'done') continue;
    done += 1;
    expect(entry.written?.length ?? 0).toBeGreaterThan(0);
    for (const w of entry.written ?? []) {
      const bytes = readFileSync(join(work, 'zhi-output', w.path));
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(w.sha256);
    }
  }
  return done;
}

describe('done means written', () => {
  it('a reply without the file is reminded once; still none, or a failed file_write, is failed with that reason and redone next time', async () => {
    makeFolder(3);
    fake.fallback = (req) => {
      const id = markerOf(req.body);
      // f002 never writes; f003's write fails (a control character in the name), then it gives up.
      if (id === 'f002') return { kind: 'text', text: 'Here is the summary: …' };
      if (id === 'f003' && req.body.messages.at(-1).role === 'user')
        return {
          kind: 'tools',
          calls: [{ name: 'file_write', arguments: { path: 'f003\u0007.md', content: 'S' } }],
        };
      if (id === 'f003') return { kind: 'text', text: 'I could not save it.' };
      return writer(req);
    };
    const r = await zhi(['run', 'summarize', 'docs', '--auto', '--jobs', '1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'docs/f002.txt: not written: the model answered without saving the file, also when reminded',
    );
    expect(r.stderr).toMatch(/docs\/f003\.txt: not written: file_write failed/);
    expect(r.stderr).not.toContain('full disk');
    // One reminder each, in the same conversation.
    const reminders = chats().filter((q) =>
      String(q.body.messages.at(-1).content).includes('Call file_write now'),
    );
    expect(reminders.map((q) => markerOf(q.body)).sort()).toEqual(['f002', 'f003']);
    const m = manifest();
    expect(m.files['f002.txt']?.status).toBe('failed');
    expect(m.files['f003.txt']?.status).toBe('failed');
    expect(expectDoneOnDisk()).toBe(1);

    fake.reset();
    fake.fallback = writer;
    const again = await zhi(['run', 'summarize', 'docs', '--auto']);
    expect(again.code).toBe(0);
    expect(firstCalls().sort()).toEqual(['f002', 'f003']);
    expect(expectDoneOnDisk()).toBe(3);
  });

  it('outputs deleted after a finished run are done again, and only they', async () => {
    makeFolder(5);
    expect((await zhi(['run', 'summarize', 'docs', '--auto'])).code).toBe(0);
    rmSync(join(work, 'zhi-output', 'f002-summary.md'));
    rmSync(join(work, 'zhi-output', 'f004-summary.md'));
    fake.reset();
    const r = await zhi(['run', 'summarize', 'docs', '--auto']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('2 files done by an earlier run are done again');
    expect(r.stderr).not.toContain('Every file is already done');
    expect(firstCalls().sort()).toEqual(['f002', 'f004']);
    expect(expectDoneOnDisk()).toBe(5);

    // A person's edit of an output keeps it done: nothing is sent.
    writeFileSync(join(work, 'zhi-output', 'f001-summary.md'), 'my own words\n');
    fake.reset();
    const kept = await zhi(['run', 'summarize', 'docs', '--auto']);
    expect(kept.stderr).toContain('Every file is already done');
    expect(chats()).toHaveLength(0);
  });

  it('the output folder moved away mid-run: the end counts what is on disk, and the next run redoes the rest', async () => {
    makeFolder(6);
    let moved = false;
    fake.fallback = (req) => {
      // While f004 is being answered, a file manager moves the output folder away.
      if (!moved && markerOf(req.body) === 'f004') {
        moved = true;
        renameSync(join(work, 'zhi-output'), join(work, 'moved-away'));
      }
      return writer(req);
    };
    const r = await zhi(['run', 'summarize', 'docs', '--auto', '--jobs', '1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Files that failed (3):');
    expect(r.stderr).toMatch(/f001\.txt +not written: zhi-output\/f001-summary\.md is not on disk/);
    expect(r.stderr).toContain('Written (3 files):');
    expect(readdirSync(join(work, 'zhi-output')).filter((n) => n.endsWith('.md'))).toHaveLength(3);
    expect(expectDoneOnDisk()).toBe(3);

    fake.reset();
    fake.fallback = writer;
    const again = await zhi(['run', 'summarize', 'docs', '--auto']);
    expect(again.code).toBe(0);
    expect(firstCalls().sort()).toEqual(['f001', 'f002', 'f003']);
    expect(expectDoneOnDisk()).toBe(6);
  });
});

describe('outputs never compete for a name', () => {
  it('--recursive mirrors subfolders; inputs sharing a stem are told apart before any call; a second run sends nothing', async () => {
    for (const [dir, id] of [
      ['a', 'xa'],
      ['b', 'xb'],
      ['c/d', 'xcd'],
      ['合同/二〇二六', 'xzh'],
    ]) {
      mkdirSync(join(work, 'in', dir!), { recursive: true });
      writeFileSync(join(work, 'in', dir!, 'x.txt'), `Document MARKER-${id}\n`);
    }
    writeFileSync(join(work, 'in', 'dup.txt'), 'Document MARKER-duptxt\n');
    writeFileSync(join(work, 'in', 'dup.md'), 'Document MARKER-dupmd\n');
    fake.fallback = (req) => {
      // A model names its output after the document: x, x, x, x, dup, dup.
      const told = /use "([^"]+)" where you would use/.exec(String(req.body.messages[1]?.content))?.[1];
      const name = told ?? (markerOf(req.body).startsWith('x') ? 'x' : 'dup');
      const content = `Summary of ${markerOf(req.body)}`;
      if (req.body.messages.at(-1).role === 'user')
        return {
          kind: 'tools',
          calls: [{ name: 'file_write', arguments: { path: `${name}-summary.md`, content } }],
        };
      return { kind: 'text', text: content };
    };
    const r = await zhi(['run', 'summarize', 'in', '--recursive', '--auto']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Files that share a name but for the extension (1 groups)');
    expect(r.stderr).toMatch(/dup\.md, dup\.txt|dup\.txt, dup\.md/);
    expect(chats()).toHaveLength(6); // one call each: no name taken, nothing retried
    const out = (p: string) => existsSync(join(work, 'zhi-output', p));
    for (const p of [
      'a/x-summary.md',
      'b/x-summary.md',
      'c/d/x-summary.md',
      '合同/二〇二六/x-summary.md',
      'dup-txt-summary.md',
      'dup-md-summary.md',
    ])
      expect(out(p), p).toBe(true);
    expect(expectDoneOnDisk()).toBe(6);

    fake.reset();
    const again = await zhi(['run', 'summarize', 'in', '--recursive', '--auto']);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('Every file is already done');
    expect(chats()).toHaveLength(0);
  });

  it('the same folder through a symbolic link is the same run: one record, nothing done twice', async () => {
    makeFolder(3);
    symlinkSync(join(work, 'docs'), join(work, 'docs-link'));
    expect((await zhi(['run', 'summarize', 'docs', '--auto'])).code).toBe(0);
    fake.reset();
    const r = await zhi(['run', 'summarize', 'docs-link', '--auto']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Every file is already done');
    expect(chats()).toHaveLength(0);
    expect(
      readdirSync(join(work, 'zhi-output', '.zhi-runs')).filter((n) => n.endsWith('.json')),
    ).toHaveLength(1);
  });
});

describe('a batch job the API refuses', () => {
  it('shows the API’s own error, fails its files with it in the run record, and stops asking', async () => {
    makeFolder(5);
    fake.batchInvalid = { code: '1214', message: 'input file line 1: model 参数非法' };
    const r = await e.zhi(['run', 'summarize', 'docs', '--batch', '--auto'], {
      env: { ZHI_BATCH_POLL_MS: '20' },
      timeoutMs: 60_000,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('The Batch API refused the job');
    expect(r.stderr).toContain('input file line 1: model 参数非法 (1214)');
    expect(r.stderr).not.toMatch(/busy|trying .* again/i);
    expect(fake.batches.size).toBe(1);
    expect(chats()).toHaveLength(0);
    const m = manifest();
    for (let k = 1; k <= 5; k++) {
      const entry = m.files[`f00${k}.txt`];
      expect(entry?.status).toBe('failed');
      expect(entry?.error).toContain('refused the job');
    }
  });
});
