import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nameProblem } from '../../src/tools/files/names.js';
import fileWrite, { createFileWriteTool } from '../../src/tools/files/write.js';
import { planWritePath, resolveWritePath } from '../../src/tools/paths.js';
import { type ToolContext, ToolError } from '../../src/tools/types.js';
import { toolContext } from '../helpers/file-fixtures.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

let cwd: string;
let outside: string;
beforeEach(() => {
  cwd = realpathSync(tempDir('zhi-ws-'));
  outside = realpathSync(tempDir('zhi-ws-out-'));
});
afterEach(() => cleanup(cwd, outside));

async function refusal(p: Promise<unknown>): Promise<ToolError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ToolError);
  return err as ToolError;
}

describe('portable file names', () => {
  const cases: [string, string, string][] = [
    ['报告:最终.md', 'char', '报告-最终.md'],
    ['a|b.csv', 'char', 'a-b.csv'],
    ['what?.md', 'char', 'what-.md'],
    ['"quoted".txt', 'char', '-quoted-.txt'],
    ['con.md', 'reserved', 'con-file.md'],
    ['NUL.txt', 'reserved', 'NUL-file.txt'],
    ['com1', 'reserved', 'com1-file'],
    ['Lpt9.tar.gz', 'reserved', 'Lpt9-file.tar.gz'],
    ['line\nbreak.md', 'control', 'line break.md'],
    ['tab\there.md', 'control', 'tab here.md'],
    ['trailing.', 'trailing', 'trailing'],
    ['trailing ', 'trailing', 'trailing'],
  ];
  it.each(cases)('%j is refused (%s) with a name to use instead', (name, key, instead) => {
    const p = nameProblem(name);
    expect(p?.key).toBe(key);
    expect(p?.instead).toBe(instead);
  });

  it('refuses names over 255 bytes, counting UTF-8 bytes (86 Chinese characters are 258)', () => {
    expect(nameProblem(`${'报'.repeat(84)}.md`)).toBeUndefined();
    const long = nameProblem(`${'报'.repeat(86)}.md`);
    expect(long?.key).toBe('long');
    expect(Buffer.byteLength(long!.instead)).toBeLessThanOrEqual(100);
    expect(long!.instead.endsWith('.md')).toBe(true);
  });

  it('keeps ordinary names, Chinese and full-width punctuation included', () => {
    for (const ok of [
      '报告：最终.md',
      'console.md',
      'nul-report.txt',
      'a.b.c.md',
      '年报 2024.xlsx',
      '.hidden.md',
    ])
      expect(nameProblem(ok)).toBeUndefined();
  });

  it('file_write refuses every bad name before anything is created, and says what to use', async () => {
    const out = join(cwd, 'zhi-output');
    const c = toolContext({ cwd, outputDir: out });
    // A space at the very end of the whole path is trimmed like any surrounding space; inside a path it is refused.
    const inPaths = cases.map(([n, k, i]) => (n.endsWith(' ') ? [`${n}/a.md`, k, `${i}/a.md`] : [n, k, i]));
    for (const [name, key, instead] of inPaths) {
      const err = await refusal(
        Promise.resolve().then(() =>
          fileWrite.assess!(fileWrite.schema.parse({ path: name, content: 'x' }), c),
        ),
      );
      expect(err.notice?.key).toBe(`safety.name.${key}`);
      expect(err.message).toContain(`Use a name such as "${instead}" instead`);
      await refusal(fileWrite.execute(fileWrite.schema.parse({ path: `sub/${name}`, content: 'x' }), c));
    }
    expect(existsSync(out)).toBe(false);
  });

  it('a name ending in a dot gets the real reason, not "cannot write . files"', async () => {
    const c = toolContext({ cwd, outputDir: join(cwd, 'zhi-output') });
    const err = await refusal(
      fileWrite.execute(fileWrite.schema.parse({ path: 'notes.md.', content: 'x' }), c),
    );
    expect(err.message).toMatch(/ends with a dot or a space/);
    expect(err.message).not.toMatch(/Cannot write/);
  });
});

describe('one rule for the shown path and the written path', () => {
  const forms: [string, string, string][] = [
    // output dir (relative to cwd), model path, where it lands (relative to cwd)
    ['zhi-output', 'a.md', 'zhi-output/a.md'],
    ['zhi-output', 'zhi-output/a.md', 'zhi-output/a.md'],
    ['docs/out', 'out/a.md', 'docs/out/out/a.md'],
    ['docs/out', 'docs/out/a.md', 'docs/out/a.md'],
    ['./x', 'x/a.md', 'x/a.md'],
    ['./x', './a.md', 'x/a.md'],
    ['.', 'sub/a.md', 'sub/a.md'],
  ];
  it.each(forms)('--output-dir %s, model asks %s: preview and file are %s', async (dir, path, lands) => {
    const outputDir = join(cwd, dir);
    const c = toolContext({ cwd, outputDir });
    const args = fileWrite.schema.parse({ path, content: 'hello' });
    const preview = fileWrite.preview!(args, c);
    expect(preview.split('\n')[0]).toContain(lands);
    expect(planWritePath(outputDir, path, cwd).display).toBe(lands);
    const result = (await fileWrite.execute(args, c)) as string;
    expect(result).toContain(`Wrote ${lands}`);
    expect(readFileSync(join(cwd, lands), 'utf8')).toBe('hello\n');
    expect(c.files[0]!.path).toBe(join(cwd, lands));
  });

  it('an absolute output folder outside the current one: shown absolute, written there', async () => {
    const c = toolContext({ cwd, outputDir: join(outside, 'reports') });
    const args = fileWrite.schema.parse({ path: 'q4/a.md', content: 'x' });
    expect(fileWrite.preview!(args, c).split('\n')[0]).toContain(join(outside, 'reports', 'q4', 'a.md'));
    await fileWrite.execute(args, c);
    expect(readFileSync(join(outside, 'reports', 'q4', 'a.md'), 'utf8')).toBe('x\n');
  });
});

describe('writes that re-check after the question', () => {
  it('a folder swapped for a link while the overwrite question is open stops the write', async () => {
    const out = join(cwd, 'zhi-output');
    mkdirSync(join(out, 'sub'), { recursive: true });
    writeFileSync(join(out, 'sub', 'r.md'), 'original');
    writeFileSync(join(outside, 'r.md'), 'victim');
    const c = toolContext({ cwd, outputDir: out, interactive: true, answer: true });
    const ask = c.ask;
    (c as ToolContext).ask = async (q) => {
      // While the person reads the question, the folder is replaced by a link to elsewhere.
      renameSync(join(out, 'sub'), join(out, 'moved'));
      symlinkSync(outside, join(out, 'sub'));
      return ask(q);
    };
    const err = await refusal(
      fileWrite.execute(fileWrite.schema.parse({ path: 'sub/r.md', content: 'new' }), c),
    );
    expect(err.message).toMatch(/symbolic link|changed/);
    expect(readFileSync(join(outside, 'r.md'), 'utf8')).toBe('victim');
    expect(readFileSync(join(out, 'moved', 'r.md'), 'utf8')).toBe('original');
    expect(readdirSync(outside)).toEqual(['r.md']);
  });

  it('a file replaced by a link while the question is open is not written through', async () => {
    const out = join(cwd, 'zhi-output');
    mkdirSync(out);
    writeFileSync(join(out, 'r.md'), 'original');
    writeFileSync(join(outside, 'victim.md'), 'victim');
    const c = toolContext({ cwd, outputDir: out, interactive: true, answer: true });
    const ask = c.ask;
    (c as ToolContext).ask = async (q) => {
      renameSync(join(out, 'r.md'), join(out, 'old.md'));
      symlinkSync(join(outside, 'victim.md'), join(out, 'r.md'));
      return ask(q);
    };
    await refusal(fileWrite.execute(fileWrite.schema.parse({ path: 'r.md', content: 'new' }), c));
    expect(readFileSync(join(outside, 'victim.md'), 'utf8')).toBe('victim');
  });

  it('a replaced file leaves no temporary file behind, and the new file is whole', async () => {
    const out = join(cwd, 'zhi-output');
    mkdirSync(out);
    writeFileSync(join(out, 'r.md'), 'original');
    const c = toolContext({ cwd, outputDir: out, interactive: true, answer: true });
    expect(await fileWrite.execute(fileWrite.schema.parse({ path: 'r.md', content: 'new' }), c)).toMatch(
      /^Replaced/,
    );
    expect(readFileSync(join(out, 'r.md'), 'utf8')).toBe('new\n');
    expect(readdirSync(out)).toEqual(['r.md']);
  });

  it('a file open in Excel (EBUSY/EPERM on replace) is explained in plain words', async () => {
    const out = join(cwd, 'zhi-output');
    mkdirSync(out);
    writeFileSync(join(out, 'book.xlsx'), 'original');
    for (const code of ['EBUSY', 'EPERM']) {
      const busy = {
        open: (await import('node:fs/promises')).open,
        rename: async () => {
          throw Object.assign(new Error(`${code}: resource busy or locked, rename`), { code });
        },
      };
      const c = toolContext({
        cwd,
        outputDir: out,
        interactive: true,
        answer: true,
      });
      const err = await refusal(
        createFileWriteTool(busy).execute(
          fileWrite.schema.parse({ path: 'book.xlsx', content: { headers: ['a'], rows: [[1]] } }),
          c,
        ),
      );
      expect(err.message).toMatch(/open in another program.*close it/);
      expect(err.notice?.key).toBe('safety.write.busy');
      expect(readFileSync(join(out, 'book.xlsx'), 'utf8')).toBe('original');
      expect(readdirSync(out)).toEqual(['book.xlsx']);
    }
  });

  it('a new file never replaces one created meanwhile (link into place fails on an existing name)', async () => {
    const out = join(cwd, 'zhi-output');
    mkdirSync(out);
    const { createNew, folderId } = await import('../../src/tools/files/atomic-write.js');
    writeFileSync(join(out, 'x.md'), 'someone else');
    expect(await createNew(join(out, 'x.md'), Buffer.from('mine'), await folderId(out))).toBe(false);
    expect(readFileSync(join(out, 'x.md'), 'utf8')).toBe('someone else');
    expect(readdirSync(out)).toEqual(['x.md']);
    expect(await resolveWritePath(out, 'y.md', { cwd })).toBeTruthy();
  });
});
