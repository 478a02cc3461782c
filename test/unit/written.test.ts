import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { allWritten, checkWrites, WriteLog } from '../../src/agent/folder/written.js';

const dir = mkdtempSync(join(tmpdir(), 'zhi-written-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const planned = (name: string, text: string) => ({
  abs: join(dir, name),
  sha256: createHash('sha256').update(text).digest('hex'),
  bytes: Buffer.byteLength(text),
});

describe('done means written', () => {
  it('a write that never landed (a full disk) leaves the file not done', async () => {
    const log = new WriteLog();
    log.planned.push(planned('full.md', 'summary'));
    const c = await checkWrites(log);
    expect(c.missing).toEqual([join(dir, 'full.md')]);
    expect(allWritten(c)).toBe(false);
  });

  it('a write on disk with other bytes is not the write that was made', async () => {
    writeFileSync(join(dir, 'torn.md'), 'summ');
    const log = new WriteLog();
    log.planned.push(planned('torn.md', 'summary'));
    expect(allWritten(await checkWrites(log))).toBe(false);
  });

  it('a name that was taken, then another that landed, is written; the landed one is recorded', async () => {
    writeFileSync(join(dir, 'b.md'), 'summary');
    const log = new WriteLog();
    log.planned.push(planned('a.md', 'summary'), planned('b.md', 'summary'));
    const c = await checkWrites(log);
    expect(allWritten(c)).toBe(true);
    expect(c.written.map((w) => w.abs)).toEqual([join(dir, 'b.md')]);
  });

  it('a refused tool call leaves the file not done even when nothing was planned', async () => {
    const log = new WriteLog();
    log.refused.push({ tool: 'file_write' });
    expect(allWritten(await checkWrites(log))).toBe(false);
  });
});
