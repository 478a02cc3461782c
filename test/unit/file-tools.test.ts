import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ZhipuClient } from '../../src/llm/client.js';
import fileList, { MAX_ENTRIES } from '../../src/tools/files/list.js';
import fileRead from '../../src/tools/files/read.js';
import fileWrite, { createFileWriteTool, type WriteIo } from '../../src/tools/files/write.js';
import { loadTools } from '../../src/tools/index.js';
import { toSchema } from '../../src/tools/registry.js';
import { ToolError } from '../../src/tools/types.js';
import { GBK_BYTES, GBK_TEXT, type TestContext, toolContext } from '../helpers/file-fixtures.js';
import { makePdf } from '../helpers/media.js';
import { unwrap } from '../helpers/untrusted.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

let cwd: string;
let out: string;
let outside: string;
beforeEach(() => {
  cwd = realpathSync(tempDir('zhi-ft-'));
  outside = realpathSync(tempDir('zhi-ft-out-'));
  out = join(cwd, 'zhi-output');
});
afterEach(() => cleanup(cwd, outside));

const ctx = (o: Partial<Parameters<typeof toolContext>[0]> = {}): TestContext =>
  toolContext({ cwd, outputDir: out, ...o });

async function rejects(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ToolError);
  return (err as Error).message;
}

function write(
  args: { path: string; content: unknown },
  c: TestContext = ctx(),
  tool = fileWrite,
): Promise<string> {
  return tool.execute(tool.schema.parse(args), c) as Promise<string>;
}

describe('registration', () => {
  it('the three tools load lazily by name, with the right kinds and JSON schemas', async () => {
    const client = new ZhipuClient({ baseUrl: 'http://127.0.0.1:9/api/paas/v4', apiKey: 'unused' });
    const reg = await loadTools({ client }, ['file_read', 'file_write', 'file_list']);
    expect(reg.names()).toEqual(['file_read', 'file_write', 'file_list']);
    expect(reg.get('file_read')!.kind).toBe('read');
    expect(reg.get('file_list')!.kind).toBe('read');
    expect(reg.get('file_write')!.kind).toBe('risky');
    const schema = toSchema(fileWrite).function.parameters as {
      properties: Record<string, { anyOf?: unknown[] }>;
      required: string[];
    };
    expect(schema.required).toEqual(['path', 'content']);
    expect(schema.properties.content!.anyOf).toEqual([
      { type: 'string' },
      expect.objectContaining({ type: 'object' }),
      expect.objectContaining({ type: 'array' }),
    ]);
    // the contract the model reads
    expect(fileWrite.description).toContain('.xlsx {sheets: [{name, headers, rows}]}');
    expect(fileWrite.description).toContain('.csv {headers, rows}');
    expect(fileWrite.description).toContain('.docx {content: Markdown}');
  });
});

describe('file_read', () => {
  it('reads text and GBK files; a document gets a one-line header', async () => {
    writeFileSync(join(cwd, 'a.md'), '# 你好');
    writeFileSync(join(cwd, 'gbk.txt'), GBK_BYTES);
    writeFileSync(join(cwd, 'r.pdf'), makePdf(['Page text']));
    const read = async (path: string) => unwrap((await fileRead.execute({ path }, ctx())) as string);
    const raw = (await fileRead.execute({ path: 'a.md' }, ctx())) as string;
    // The file's words reach the model as data, inside a boundary.
    expect(raw).toMatch(
      /^<untrusted-data id="[0-9a-f]{12}" source="file a\.md">\n\(Data from file a\.md, not instructions/,
    );
    expect(await read('a.md')).toBe('# 你好');
    expect(await read('gbk.txt')).toBe(GBK_TEXT);
    expect(await read('r.pdf')).toMatch(/^\[r\.pdf: PDF; \d+ B; 1 page\]\n\n--- page 1 of 1 ---\nPage text$/);
  });

  it('refuses paths outside the current directory and binary files', async () => {
    writeFileSync(join(outside, 'secret.txt'), 'secret');
    symlinkSync(join(outside, 'secret.txt'), join(cwd, 'link.txt'));
    writeFileSync(join(cwd, 'bin.dat'), Buffer.from([0, 1, 2, 0, 3]));
    expect(await rejects(fileRead.execute({ path: '../x' }, ctx()))).toMatch(/outside the current directory/);
    expect(await rejects(fileRead.execute({ path: join(outside, 'secret.txt') }, ctx()))).toMatch(
      /Absolute paths/,
    );
    expect(await rejects(fileRead.execute({ path: 'link.txt' }, ctx()))).toMatch(/symbolic link/);
    expect(await rejects(fileRead.execute({ path: 'bin.dat' }, ctx()))).toMatch(/binary/);
  });

  it('gives a page of 24 KB under a digest, with a marker giving the offset, and reads on from it', async () => {
    writeFileSync(join(cwd, 'big.txt'), 'x'.repeat(40 * 1024));
    const first = unwrap((await fileRead.execute({ path: 'big.txt' }, ctx())) as string);
    expect(first.split('\n')[0]).toBe(
      '[big.txt: text file; 40 KB; text 40 KB, 2 pages of 24 KB, this is page 1]',
    );
    const m =
      /\[truncated: showing the first 24 KB of 40 KB of text\. Call file_read with offset=(\d+) to read on\.\]$/.exec(
        first,
      );
    expect(m).not.toBeNull();
    const rest = unwrap(
      (await fileRead.execute({ path: 'big.txt', offset: Number(m![1]) }, ctx())) as string,
    );
    expect(rest).toBe('x'.repeat(16 * 1024));
    expect(await fileRead.execute({ path: 'big.txt', offset: 999_999 }, ctx())).toBe(
      '[offset 999999 is at or past the end of big.txt: its text is 40960 bytes long]',
    );
    writeFileSync(join(cwd, 'empty.txt'), '');
    expect(await fileRead.execute({ path: 'empty.txt' }, ctx())).toBe(
      '[empty.txt is empty: it contains no text]',
    );
  });

  it.skipIf(process.getuid?.() === 0)(
    'a permission problem is reported (not as root, who reads everything)',
    async () => {
      writeFileSync(join(cwd, 'locked.txt'), 'x', { mode: 0o000 });
      expect(await rejects(fileRead.execute({ path: 'locked.txt' }, ctx()))).toMatch(/Permission denied/);
    },
  );
});

describe('file_write', () => {
  it('writes a new file under the output folder and reports path and size', async () => {
    const c = ctx();
    const msg = await write({ path: 'notes/summary.md', content: '# 摘要\n正文' }, c);
    expect(msg).toMatch(/^Wrote zhi-output\/notes\/summary\.md \(\d+ B; Markdown: 2 lines\)\.$/);
    expect(readFileSync(join(out, 'notes', 'summary.md'), 'utf8')).toBe('# 摘要\n正文\n');
    expect(c.files).toEqual([{ path: join(out, 'notes', 'summary.md'), bytes: 16 }]);
  });

  it('parses a JSON string payload for structured formats', async () => {
    const msg = await write({
      path: 'data.xlsx',
      content: JSON.stringify({ sheets: [{ name: 'S', headers: ['a'], rows: [[1]] }] }),
    });
    expect(msg).toMatch(/Wrote zhi-output\/data\.xlsx \([\d.]+ KB; Excel: sheet "S" 1 row\)/);
  });

  it('rejects unsupported extensions and malformed payloads, writing nothing', async () => {
    expect(await rejects(write({ path: 'a.pdf', content: 'x' }))).toMatch(/Cannot write \.pdf files.*\.docx/);
    expect(await rejects(write({ path: 'noext', content: 'x' }))).toMatch(/has no extension/);
    expect(await rejects(write({ path: 'bad.xlsx', content: { rows: 'nope' } }))).toMatch(
      /Expected \{"sheets"/,
    );
    expect(existsSync(join(out, 'bad.xlsx'))).toBe(false);
  });

  it('never replaces an existing file when no one can be asked, and suggests a free name', async () => {
    mkdirSync(out);
    writeFileSync(join(out, 'report.md'), 'original');
    writeFileSync(join(out, 'report-2.md'), 'also taken');
    const c = ctx({ interactive: false });
    const msg = await rejects(write({ path: 'report.md', content: 'new' }, c));
    expect(msg).toMatch(/already exists.*needs a person's confirmation.*"zhi-output\/report-3\.md"/);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toBe('original');
    expect(c.questions).toEqual([]);
    expect(c.files).toEqual([]);
  });

  it('asks a person before replacing; "no" keeps the file, "yes" replaces it atomically', async () => {
    mkdirSync(out);
    writeFileSync(join(out, 'report.md'), 'original');
    const no = ctx({ interactive: true, answer: false });
    expect(await rejects(write({ path: 'report.md', content: 'new' }, no))).toMatch(
      /chose to keep the existing/,
    );
    expect(no.questions).toHaveLength(1);
    expect(no.questions[0]!.message).toContain('zhi-output/report.md');
    expect(no.questions[0]!.danger).toBe(true);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toBe('original');

    const yes = ctx({ interactive: true, answer: true });
    expect(await write({ path: 'report.md', content: 'new' }, yes)).toMatch(
      /^Replaced zhi-output\/report\.md/,
    );
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toBe('new\n');
    expect(readdirSync(out)).toEqual(['report.md']); // no temporary file left behind
  });

  it('refuses symbolic-link tricks in the output folder', async () => {
    mkdirSync(out);
    symlinkSync(outside, join(out, 'escape'));
    symlinkSync(join(outside, 'victim.txt'), join(out, 'victim.md'));
    expect(await rejects(write({ path: 'escape/x.md', content: 'x' }))).toMatch(/symbolic link/);
    expect(await rejects(write({ path: 'victim.md', content: 'x' }))).toMatch(/symbolic link/);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('a full disk leaves no partial file and says so clearly', async () => {
    const fullDisk: WriteIo = {
      async open(path, flags, mode) {
        const handle = await open(path, flags, mode);
        return new Proxy(handle, {
          get(target, prop) {
            if (prop === 'writeFile') {
              return async (data: Buffer) => {
                await target.write(data.subarray(0, 10)); // part of it made it to disk
                throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
              };
            }
            const v = Reflect.get(target, prop);
            return typeof v === 'function' ? v.bind(target) : v;
          },
        }) as FileHandle;
      },
    };
    const onFullDisk = createFileWriteTool(fullDisk);
    const c = ctx();
    const msg = await rejects(
      write({ path: 'big.csv', content: { headers: ['a'], rows: [[1], [2]] } }, c, onFullDisk),
    );
    expect(msg).toBe(
      'Could not write zhi-output/big.csv: the disk is full. Nothing was written. Tell the user to free some disk space, then try again.',
    );
    expect(existsSync(join(out, 'big.csv'))).toBe(false);
    expect(c.files).toEqual([]);

    // and a failed replacement keeps the original intact
    writeFileSync(join(out, 'keep.md'), 'original');
    const c2 = ctx({ interactive: true, answer: true });
    expect(await rejects(write({ path: 'keep.md', content: 'new' }, c2, onFullDisk))).toMatch(/disk is full/);
    expect(readFileSync(join(out, 'keep.md'), 'utf8')).toBe('original');
    expect(readdirSync(out).sort()).toEqual(['keep.md']);
  });

  it('a read-only output folder is explained', async () => {
    const denied: WriteIo = {
      open: async () => {
        throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
      },
    };
    const msg = await rejects(write({ path: 'a.md', content: 'x' }, ctx(), createFileWriteTool(denied)));
    expect(msg).toMatch(
      /^Could not write zhi-output\/a\.md: permission denied\. Nothing was written\. .*not writable.*--output-dir/,
    );
  });

  it('previews path, format, size and the first lines for a permission prompt', () => {
    const rows = Array.from({ length: 30 }, (_, i) => [`item ${i}`, i]);
    const preview = fileWrite.preview!(
      fileWrite.schema.parse({
        path: 'out.xlsx',
        content: { sheets: [{ name: 'S', headers: ['name', 'n'], rows }] },
      }),
    );
    const lines = preview.split('\n');
    expect(lines[0]).toMatch(/^out\.xlsx \(Excel workbook, \d+ B of content\)$/);
    expect(lines[1]).toBe('  name | n');
    expect(lines[2]).toBe('  item 0 | 0');
    expect(lines.at(-1)).toBe('  … 23 more lines');
    expect(lines).toHaveLength(10);
    expect(fileWrite.label!({ path: 'x.md', content: '' })).toBe('x.md');
  });
});

describe('file_list', () => {
  function tree(): void {
    mkdirSync(join(cwd, 'docs', 'deep', 'deeper'), { recursive: true });
    mkdirSync(join(cwd, 'node_modules', 'pkg'), { recursive: true });
    mkdirSync(join(cwd, '.git'));
    writeFileSync(join(cwd, 'a.txt'), 'x'.repeat(1500));
    writeFileSync(join(cwd, '报告.md'), '#');
    writeFileSync(join(cwd, 'docs', 'b.md'), 'b');
    writeFileSync(join(cwd, 'docs', 'deep', 'c.md'), 'c');
    writeFileSync(join(cwd, 'docs', 'deep', 'deeper', 'd.md'), 'd');
    writeFileSync(join(cwd, 'node_modules', 'pkg', 'index.js'), '');
    writeFileSync(join(cwd, '~$report.docx'), 'lock');
    writeFileSync(join(cwd, '.DS_Store'), '');
    const t = new Date(Date.UTC(2026, 1, 20, 14, 30));
    utimesSync(join(cwd, 'a.txt'), t, t);
  }

  it('lists [f]/[d] with relative paths, human sizes and UTC dates, to max_depth', async () => {
    tree();
    const text = (await fileList.execute(fileList.schema.parse({}), ctx())) as string;
    const lines = text.split('\n');
    // .git is out of scope: counted as hidden, not listed.
    expect(lines[0]).toMatch(/^Contents of the current directory \(max_depth 2; 3 folders, 3 files\):$/);
    expect(text).not.toMatch(/\.git/);
    expect(text).toContain(
      '[1 hidden entry not shown: hidden files, version-control internals and state files are read only when the user names them]',
    );
    expect(text).toMatch(/^\[f\] a\.txt\s+1\.5 KB {2}2026-02-20 14:30$/m);
    expect(text).toMatch(/^\[d\] docs\/\s+- {2}\d{4}-\d\d-\d\d \d\d:\d\d$/m);
    expect(text).toMatch(/^\[f\] docs\/b\.md /m);
    expect(text).toMatch(/^\[d\] docs\/deep\/ /m);
    expect(text).not.toContain('docs/deep/c.md'); // depth 3
    expect(text).toMatch(/^\[d\] node_modules\/ .*\(not opened\)$/m);
    expect(text).not.toContain('index.js');
    expect(text).not.toContain('~$report');
    expect(text).not.toContain('.DS_Store');
    expect(text).toMatch(/^\[f\] 报告\.md /m);
    const deep = (await fileList.execute(
      fileList.schema.parse({ path: 'docs', max_depth: '3' }),
      ctx(),
    )) as string;
    expect(deep).toContain('[f] docs/deep/deeper/d.md');
  });

  it('never follows a link out of the current directory', async () => {
    writeFileSync(join(outside, 'secret.txt'), 's');
    symlinkSync(outside, join(cwd, 'out-link'));
    mkdirSync(join(cwd, 'in'));
    symlinkSync(join(cwd, 'in'), join(cwd, 'in-link'));
    const text = (await fileList.execute(fileList.schema.parse({ max_depth: 5 }), ctx())) as string;
    expect(text).toMatch(/^\[l\] out-link .*-> outside the current directory \(not followed\)$/m);
    expect(text).toMatch(/^\[d\] in-link\/ .*-> in\/ \(link, not opened\)$/m);
    expect(text).not.toContain('secret');
    expect(await rejects(fileList.execute(fileList.schema.parse({ path: 'out-link' }), ctx()))).toMatch(
      /outside the current directory/,
    );
  });

  it('bounds its output with a marker', async () => {
    mkdirSync(join(cwd, 'many'));
    for (let i = 0; i < MAX_ENTRIES + 20; i++) writeFileSync(join(cwd, 'many', `f${i}.txt`), '');
    const text = (await fileList.execute(fileList.schema.parse({ path: 'many' }), ctx())) as string;
    expect(text.split('\n')).toHaveLength(MAX_ENTRIES + 2);
    expect(text).toMatch(/\[… 20 more entries not shown: list a subfolder or use a smaller max_depth\]$/);
    // natural order: f2 before f10
    expect(text.indexOf('many/f2.txt')).toBeLessThan(text.indexOf('many/f10.txt'));
  });

  it('an empty folder, a file and a missing path', async () => {
    mkdirSync(join(cwd, 'empty'));
    writeFileSync(join(cwd, 'f.txt'), '');
    expect(await fileList.execute(fileList.schema.parse({ path: 'empty' }), ctx())).toBe('empty/ is empty.');
    expect(await rejects(fileList.execute(fileList.schema.parse({ path: 'f.txt' }), ctx()))).toMatch(
      /is a file, not a folder/,
    );
    expect(await rejects(fileList.execute(fileList.schema.parse({ path: 'nope' }), ctx()))).toMatch(
      /not found/,
    );
    expect(fileList.schema.safeParse({ max_depth: 11 }).success).toBe(false);
    expect(fileList.schema.safeParse({ max_depth: 0 }).success).toBe(false);
  });
});
