/**
 * Issue 30, a newcomer's first hour, the inputs: a folder run names every file it leaves out
 * (empty, of another kind) and never sends an empty file; one empty file is refused before any
 * call.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';

const e = useE2E();
const { fake } = e;

/** Every user message the fake was sent, joined (what reached the model). */
const sent = () =>
  fake
    .chatBodies()
    .flatMap((b) => b.messages)
    .filter((m: { role: string }) => m.role === 'user')
    .map((m: { content: unknown }) => JSON.stringify(m.content))
    .join('\n');

describe.each(['en', 'zh'] as const)('skipped and empty files (%s)', (lang) => {
  const env = { ZHI_LANGUAGE: lang };

  it('a folder run names each skipped file, counts them at the end, and sends no empty file', async () => {
    const docs = join(e.cwd, 'docs');
    mkdirSync(docs);
    writeFileSync(join(docs, 'a.txt'), 'The quarterly report MARKER-A.\n');
    writeFileSync(join(docs, 'empty.txt'), '');
    writeFileSync(join(docs, 'blank.md'), '\uFEFF  \n\n');
    copyFileSync(process.execPath, join(docs, 'program'));
    writeFileSync(join(docs, 'photos.zip'), Buffer.from([0x50, 0x4b, 3, 4, 0, 0]));
    fake.script({
      kind: 'tools',
      calls: [{ name: 'file_write', arguments: { path: 'a-summary.md', content: 'A summary.' } }],
    });
    const r = await e.zhi(['run', 'summarize', 'docs', '--auto'], { env, timeoutMs: 30_000 });
    expect(r.code).toBe(0);
    for (const name of ['docs/empty.txt', 'docs/blank.md', 'docs/program', 'docs/photos.zip'])
      expect(r.stderr).toContain(name);
    expect(r.stderr).toMatch(lang === 'zh' ? /已跳过：4 个/ : /Skipped: 4 /);
    expect(r.stderr).toContain(lang === 'zh' ? '空文件' : 'empty');
    expect(fake.chatBodies()).toHaveLength(1);
    expect(sent()).toContain('MARKER-A');
    expect(sent()).not.toMatch(/empty\.txt|blank\.md|program|photos\.zip/);
  });

  it('a folder with only empty files: refused, naming them, nothing sent', async () => {
    mkdirSync(join(e.cwd, 'docs'));
    writeFileSync(join(e.cwd, 'docs', 'empty.txt'), '');
    const r = await e.zhi(['run', 'summarize', 'docs'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('docs/empty.txt');
    expect(fake.chatBodies()).toHaveLength(0);
  });

  it('zhi run on one empty file: a clear message, exit 2, no model call', async () => {
    writeFileSync(join(e.cwd, 'empty.txt'), '\n');
    const r = await e.zhi(['run', 'summarize', 'empty.txt'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(lang === 'zh' ? /empty\.txt 是空文件/ : /empty\.txt is empty/);
    expect(r.stderr).toMatch(lang === 'zh' ? /没有发送给模型/ : /Nothing was sent to the model/);
    expect(fake.chatBodies()).toHaveLength(0);
  });

  it('zhi run on a binary file: the same kind of mistake, the same exit code (2), no model call', async () => {
    writeFileSync(join(e.cwd, 'photos.dat'), Buffer.from([0, 1, 2, 3, 0, 0xff, 0xfe, 0]));
    const r = await e.zhi(['run', 'summarize', 'photos.dat'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('photos.dat');
    expect(fake.chatBodies()).toHaveLength(0);
  });
});

describe.each(['en', 'zh'] as const)('did you mean, outside the REPL (%s)', (lang) => {
  const env = { ZHI_LANGUAGE: lang };
  const mean = lang === 'zh' ? '你是不是想' : 'Did you mean';

  it('zhi run with a mistyped file offers the name that is there', async () => {
    writeFileSync(join(e.cwd, 'notes.txt'), 'Meeting notes.\n');
    const r = await e.zhi(['run', 'summarize', 'note.txt'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(mean);
    expect(r.stderr).toContain('notes.txt');
    expect(fake.chatBodies()).toHaveLength(0);
  });

  it('zhi -c without a terminal: warned before sending, then sent', async () => {
    writeFileSync(join(e.cwd, 'notes.txt'), 'Meeting notes.\n');
    fake.script({ kind: 'text', text: 'OK' });
    const r = await e.zhi(['-c', '总结 note.txt'], { env });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(mean);
    expect(r.stderr).toContain('notes.txt');
    expect(fake.chatBodies()).toHaveLength(1);
  });

  it('zhi -c at a terminal asks first: no sends nothing (exit 2), yes sends', async () => {
    writeFileSync(join(e.cwd, 'notes.txt'), 'Meeting notes.\n');
    const no = e.pty({ args: ['-c', '总结 note.txt'], env });
    await no.waitFor('[y/N]');
    expect(no.text()).toContain('notes.txt');
    no.write('n\r');
    expect((await no.exited()).exitCode).toBe(2);
    expect(fake.chatBodies()).toHaveLength(0);
    fake.script({ kind: 'text', text: 'OK' });
    const yes = e.pty({ args: ['-c', '总结 note.txt'], env });
    await yes.waitFor('[y/N]');
    yes.write('y\r');
    expect((await yes.exited()).exitCode).toBe(0);
    expect(fake.chatBodies()).toHaveLength(1);
  });
});
