import { existsSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isInside, resolveReadPath, resolveWritePath } from '../../src/tools/paths.js';
import { ToolError } from '../../src/tools/types.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

let root: string; // the current directory of the "user"
let outside: string; // somewhere else on the disk

beforeEach(() => {
  root = realpathSync(tempDir('zhi-paths-'));
  outside = realpathSync(tempDir('zhi-outside-'));
  mkdirSync(join(root, 'docs'));
  writeFileSync(join(root, 'docs', 'report.md'), '# hi');
  writeFileSync(join(outside, 'secret.txt'), 'secret');
});
afterEach(() => cleanup(root, outside));

async function readError(input: string): Promise<string> {
  const err = await resolveReadPath(root, input).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ToolError);
  return (err as Error).message;
}

describe('resolveReadPath', () => {
  it('resolves a relative path inside the current directory', async () => {
    const r = await resolveReadPath(root, 'docs/report.md');
    expect(r.abs).toBe(join(root, 'docs', 'report.md'));
    expect(r.display).toBe('docs/report.md');
    expect((await resolveReadPath(root, './docs/../docs/report.md')).display).toBe('docs/report.md');
  });

  it('refuses absolute paths, with a relative example', async () => {
    expect(await readError(join(outside, 'secret.txt'))).toMatch(
      /Absolute paths are not allowed.*relative to the current directory/,
    );
    expect(await readError('C:\\Users\\me\\a.txt')).toMatch(/Absolute paths are not allowed/);
    expect(await readError('~/a.txt')).toMatch(/"~"/);
  });

  it('refuses .. escapes', async () => {
    expect(await readError('../x')).toMatch(/outside the current directory/);
    expect(await readError('docs/../../x')).toMatch(/outside the current directory/);
  });

  it('refuses a symbolic link that leads outside, even to an existing file', async () => {
    symlinkSync(join(outside, 'secret.txt'), join(root, 'link.txt'));
    symlinkSync(outside, join(root, 'elsewhere'));
    expect(await readError('link.txt')).toMatch(/symbolic link.*outside the current directory/);
    expect(await readError('elsewhere/secret.txt')).toMatch(/symbolic link.*outside/);
  });

  it('follows a symbolic link that stays inside', async () => {
    symlinkSync(join(root, 'docs', 'report.md'), join(root, 'alias.md'));
    expect((await resolveReadPath(root, 'alias.md')).abs).toBe(join(root, 'docs', 'report.md'));
  });

  it('says a missing file is missing, with a "did you mean"', async () => {
    const msg = await readError('docs/reprot.md');
    expect(msg).toContain('File not found: "docs/reprot.md"');
    expect(msg).toContain('Did you mean "report.md"?');
    symlinkSync(join(root, 'nowhere'), join(root, 'dangling'));
    expect(await readError('dangling')).toMatch(/symbolic link whose target does not exist/);
  });

  it('refuses an empty path', async () => {
    expect(await readError('  ')).toMatch(/empty/);
  });
});

describe('resolveWritePath', () => {
  const out = () => join(root, 'zhi-output');
  async function writeError(input: string): Promise<string> {
    const err = await resolveWritePath(out(), input, { cwd: root }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ToolError);
    return (err as Error).message;
  }

  it('creates the output folder and missing parents on demand', async () => {
    expect(existsSync(out())).toBe(false);
    const r = await resolveWritePath(out(), '2024/q4/summary.xlsx', { cwd: root });
    expect(r.abs).toBe(join(out(), '2024', 'q4', 'summary.xlsx'));
    expect(r.display).toBe('zhi-output/2024/q4/summary.xlsx');
    expect(existsSync(join(out(), '2024', 'q4'))).toBe(true);
    expect(existsSync(r.abs)).toBe(false);
  });

  it('treats a repeated output folder name as the same file', async () => {
    const r = await resolveWritePath(out(), 'zhi-output/a.md', { cwd: root });
    expect(r.abs).toBe(join(out(), 'a.md'));
  });

  it('refuses absolute paths and any .. segment, even one that stays inside', async () => {
    expect(await writeError('/tmp/x.md')).toMatch(/Absolute paths are not allowed/);
    expect(await writeError('../x.md')).toMatch(/contains "\.\."/);
    expect(await writeError('a/../b.md')).toMatch(/contains "\.\."/);
    expect(await writeError('a\\..\\b.md')).toMatch(/contains "\.\."/);
    expect(existsSync(join(root, 'x.md'))).toBe(false);
  });

  it('refuses a folder name and an existing folder', async () => {
    expect(await writeError('reports/')).toMatch(/folder, not a file name/);
    mkdirSync(join(out(), 'sub'), { recursive: true });
    expect(await writeError('sub')).toMatch(/existing folder/);
  });

  it('refuses to go through a symbolic link that leaves the output folder', async () => {
    mkdirSync(out());
    symlinkSync(outside, join(out(), 'escape'));
    expect(await writeError('escape/new.md')).toMatch(/symbolic link that leads outside the output folder/);
    expect(await writeError('escape/deeper/new.md')).toMatch(/symbolic link/);
    expect(existsSync(join(outside, 'deeper'))).toBe(false);
  });

  it('refuses a target that is itself a symbolic link', async () => {
    mkdirSync(out());
    symlinkSync(join(outside, 'secret.txt'), join(out(), 'a.md'));
    symlinkSync(join(outside, 'new.txt'), join(out(), 'b.md')); // dangling: would create a file outside
    expect(await writeError('a.md')).toMatch(/symbolic link/);
    expect(await writeError('b.md')).toMatch(/symbolic link/);
  });

  it('refuses an output folder that is itself a link, or reached through one (issue 11)', async () => {
    symlinkSync(outside, join(root, 'zhi-output'));
    const err = await resolveWritePath(out(), 'ok.md', { cwd: root }).catch((e: ToolError) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect((err as ToolError).message).toMatch(/output folder "zhi-output" is a symbolic link/);
    expect((err as ToolError).notice?.key).toBe('safety.outputLink');
    symlinkSync(outside, join(root, 'docs-link'));
    const nested = await resolveWritePath(join(root, 'docs-link', 'out'), 'ok.md', { cwd: root }).catch(
      (e: ToolError) => e,
    );
    expect((nested as ToolError).message).toMatch(/"docs-link" is a symbolic link/);
    expect(existsSync(join(outside, 'out'))).toBe(false);
    expect(existsSync(join(outside, 'ok.md'))).toBe(false);
  });

  it('isInside compares whole path segments', () => {
    expect(isInside('/a/b', '/a/b/c')).toBe(true);
    expect(isInside('/a/b', '/a/b')).toBe(true);
    expect(isInside('/a/b', '/a/bc')).toBe(false);
    expect(isInside('/a/b', '/a')).toBe(false);
  });
});
