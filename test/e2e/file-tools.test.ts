/**
 * The file tools end to end: the built zhi, the fake API scripting the model's tool calls, and
 * checks on the files on disk and on the tool results the model got back.
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { makePdf } from '../helpers/media.js';
import { unwrap } from '../helpers/untrusted.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

const e = useE2E();
const { fake } = e;
let cwd: string;
let outside: string;
beforeEach(() => {
  cwd = e.cwd;
  outside = realpathSync(tempDir('zhi-elsewhere-'));
  return () => cleanup(outside);
});

/** The tool results the model received, by call id, from the request after the calls. */
function toolResults(requestIndex: number): Record<string, string> {
  const body = fake.chatBodies()[requestIndex];
  const out: Record<string, string> = {};
  for (const m of body.messages) if (m.role === 'tool') out[m.tool_call_id] = unwrap(m.content);
  return out;
}

const REPORT = [
  '# 2024 季度报告',
  '',
  '| 季度 | 收入（万元） | 增长 |',
  '| --- | --- | --- |',
  '| Q1 | 1,234.5 | 12.5% |',
  '| Q2 | 1,480 | 19.9% |',
  '',
].join('\n');

describe('read → write .xlsx → answer, in auto mode', () => {
  it('does the whole job and the workbook holds the figures as numbers', async () => {
    writeFileSync(join(cwd, 'report.md'), REPORT);
    fake.script(
      { kind: 'tools', calls: [{ id: 'call_read', name: 'file_read', arguments: { path: 'report.md' } }] },
      {
        kind: 'tools',
        calls: [
          {
            id: 'call_write',
            name: 'file_write',
            arguments: {
              path: 'figures.xlsx',
              content: {
                sheets: [
                  {
                    name: '季度数据',
                    headers: ['季度', '收入（万元）', '增长'],
                    rows: [
                      ['Q1', '1,234.5', '12.5%'],
                      ['Q2', 1480, '19.9%'],
                    ],
                  },
                ],
              },
            },
          },
        ],
      },
      { kind: 'text', text: '已保存到 zhi-output/figures.xlsx。' },
    );
    const r = await e.zhi(['-c', 'read report.md and save an Excel table of its figures', '--auto']);
    expect(r.stderr).not.toMatch(/Error|Traceback/);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('已保存到 zhi-output/figures.xlsx。\n');

    // The model got the file's text, then the write report.
    expect(toolResults(1)).toEqual({ call_read: REPORT });
    const written = toolResults(2).call_write!;
    expect(written).toMatch(
      /^Wrote zhi-output\/figures\.xlsx \([\d.]+ KB; Excel: sheet "季度数据" 2 rows\)\.$/,
    );
    // The tool schemas went with every request.
    expect(fake.chatBodies()[0].tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(
      expect.arrayContaining(['file_read', 'file_write', 'file_list']),
    );

    const file = join(cwd, 'zhi-output', 'figures.xlsx');
    expect(statSync(file).size).toBeGreaterThan(1000);
    const { default: ExcelJS } = await import('exceljs');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(readFileSync(file) as unknown as ArrayBuffer);
    const ws = wb.getWorksheet('季度数据')!;
    expect(ws.getRow(1).values).toEqual([undefined, '季度', '收入（万元）', '增长']);
    expect(ws.getCell('A1').font?.bold).toBe(true);
    expect(ws.getCell('B2').value).toBe(1234.5);
    expect(ws.getCell('C2').value).toBe(0.125);
    expect(ws.getCell('B3').value).toBe(1480);
    // The file is listed for the user.
    expect(r.stderr).toContain('zhi-output/figures.xlsx');
  });
});

describe('rejected paths: the model is told why, and nothing leaks', () => {
  it('.., absolute, symlink escape, binary and oversized, as parallel reads', async () => {
    writeFileSync(join(outside, 'secret.txt'), 'TOP SECRET');
    symlinkSync(join(outside, 'secret.txt'), join(cwd, 'innocent.txt'));
    writeFileSync(join(cwd, 'photo.bin'), Buffer.from([0x00, 0x01, 0x02, 0x00, 0xff, 0x00]));
    writeFileSync(join(cwd, 'big.txt'), `${'年'.repeat(50_000)}`); // 150 KB of text
    fake.script(
      {
        kind: 'tools',
        calls: [
          { id: 'c_up', name: 'file_read', arguments: { path: '../x' } },
          { id: 'c_abs', name: 'file_read', arguments: { path: join(outside, 'secret.txt') } },
          { id: 'c_link', name: 'file_read', arguments: { path: 'innocent.txt' } },
          { id: 'c_bin', name: 'file_read', arguments: { path: 'photo.bin' } },
          { id: 'c_big', name: 'file_read', arguments: { path: 'big.txt' } },
          { id: 'c_list', name: 'file_list', arguments: { path: '..' } },
        ],
      },
      { kind: 'text', text: 'done' },
    );
    const r = await e.zhi(['-c', 'read them']);
    expect(r.code).toBe(0);
    const res = toolResults(1);
    expect(res.c_up).toMatch(/^Error: "\.\.\/x" points outside the current directory/);
    expect(res.c_abs).toMatch(/^Error: Absolute paths are not allowed/);
    expect(res.c_link).toMatch(/^Error: "innocent\.txt" is a symbolic link .* outside the current directory/);
    expect(res.c_bin).toMatch(/^Error: This is a binary file/);
    expect(res.c_list).toMatch(/^Error: "\.\." points outside the current directory/);
    // oversized: the beginning of the file, then a visible marker; never the whole file
    // file_read's own 24 KB page reaches the model whole, under a digest, with the offset to read on.
    expect(res.c_big).toMatch(
      /^\[big\.txt: text file; 146 KB; text 146 KB, 7 pages of 24 KB, this is page 1\]\n\n年年年/,
    );
    expect(res.c_big).toMatch(
      /\[truncated: showing the first 24 KB of 146 KB.*Call file_read with offset=\d+ to read on\./,
    );
    expect(Buffer.byteLength(res.c_big!, 'utf8')).toBeGreaterThan(23 * 1024);
    expect(Buffer.byteLength(res.c_big!, 'utf8')).toBeLessThan(26 * 1024);
    expect(JSON.stringify(fake.chatBodies())).not.toContain('TOP SECRET');
    // the failures are visible on stderr, with the reason
    expect(r.stderr).toMatch(/Read.*\.\.\/x/);
  });

  it('an existing output file is not replaced when no one can be asked, even with --auto', async () => {
    mkdirSync(join(cwd, 'zhi-output'));
    writeFileSync(join(cwd, 'zhi-output', 'summary.md'), 'the user’s own summary');
    fake.script(
      {
        kind: 'tools',
        calls: [{ id: 'c_w', name: 'file_write', arguments: { path: 'summary.md', content: 'new text' } }],
      },
      { kind: 'text', text: 'could not overwrite' },
    );
    const r = await e.zhi(['-c', 'write the summary', '--auto']);
    expect(r.code).toBe(0);
    expect(toolResults(1).c_w).toMatch(
      /^Error: zhi-output\/summary\.md already exists, and replacing it needs a person's confirmation.*"zhi-output\/summary-2\.md"/,
    );
    expect(readFileSync(join(cwd, 'zhi-output', 'summary.md'), 'utf8')).toBe('the user’s own summary');
    expect(readdirSync(join(cwd, 'zhi-output'))).toEqual(['summary.md']);
  });

  it('writes outside the output folder are refused: .., absolute, symlinked folder', async () => {
    mkdirSync(join(cwd, 'zhi-output'));
    symlinkSync(outside, join(cwd, 'zhi-output', 'shared'));
    fake.script(
      {
        kind: 'tools',
        calls: [
          { id: 'w_up', name: 'file_write', arguments: { path: '../escape.md', content: 'x' } },
          { id: 'w_abs', name: 'file_write', arguments: { path: join(outside, 'abs.md'), content: 'x' } },
          { id: 'w_link', name: 'file_write', arguments: { path: 'shared/planted.md', content: 'x' } },
        ],
      },
      { kind: 'text', text: 'ok' },
    );
    const r = await e.zhi(['-c', 'write', '--auto']);
    expect(r.code).toBe(0);
    const res = toolResults(1);
    expect(res.w_up).toMatch(/^Error: "\.\.\/escape\.md" contains "\.\."/);
    expect(res.w_abs).toMatch(/^Error: Absolute paths are not allowed/);
    expect(res.w_link).toMatch(
      /^Error: "shared\/planted\.md" goes through a symbolic link that leads outside the output folder/,
    );
    expect(readdirSync(outside)).toEqual([]);
    expect(existsSync(join(cwd, 'escape.md'))).toBe(false);
  });
});

describe('permissions', () => {
  it('file_write without --auto in pipe mode is denied, and nothing is written', async () => {
    fake.script(
      {
        kind: 'tools',
        calls: [{ id: 'c_w', name: 'file_write', arguments: { path: 'notes.md', content: '# hi' } }],
      },
      { kind: 'text', text: 'I could not write the file.' },
    );
    const r = await e.zhi([], { stdin: 'save a note' });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('I could not write the file.\n');
    expect(toolResults(1).c_w).toMatch(/^Error: Denied: this needs a person to confirm/);
    expect(r.stderr).toContain(
      'Not run (write a file): it needs your confirmation and there is no terminal to ask',
    );
    expect(existsSync(join(cwd, 'zhi-output'))).toBe(false);
  });
});

describe('documents the model reads natively', () => {
  it('a .docx, a GBK text and a listing, in one turn', async () => {
    const d = await import('docx');
    const doc = new d.Document({
      sections: [
        {
          children: [
            new d.Paragraph({ text: '合同条款', heading: d.HeadingLevel.HEADING_1 }),
            new d.Paragraph({ text: '第一条', bullet: { level: 0 } }),
          ],
        },
      ],
    });
    mkdirSync(join(cwd, 'in'));
    writeFileSync(join(cwd, 'in', 'contract.docx'), await d.Packer.toBuffer(doc));
    writeFileSync(join(cwd, 'in', 'old.txt'), Buffer.from('c4e3bac3a3accac0bde7', 'hex')); // 你好，世界 in GBK
    writeFileSync(join(cwd, 'in', 'typed.pdf'), makePdf(['Invoice total 42.00']));
    writeFileSync(join(cwd, 'in', 'scan.pdf'), makePdf([null]));
    fake.script(
      {
        kind: 'tools',
        calls: [
          { id: 'l', name: 'file_list', arguments: {} },
          { id: 'd', name: 'file_read', arguments: { path: 'in/contract.docx' } },
          { id: 'g', name: 'file_read', arguments: { path: 'in/old.txt' } },
          { id: 'p', name: 'file_read', arguments: { path: 'in/typed.pdf' } },
          { id: 's', name: 'file_read', arguments: { path: 'in/scan.pdf' } },
        ],
      },
      { kind: 'text', text: 'read' },
    );
    const r = await e.zhi(['-c', 'read']);
    expect(r.code).toBe(0);
    const res = toolResults(1);
    expect(res.l).toMatch(/^\[f\] in\/contract\.docx\s+[\d.]+ KB {2}\d{4}-\d\d-\d\d \d\d:\d\d$/m);
    expect(res.d).toContain('# 合同条款');
    expect(res.d).toMatch(/^- 第一条$/m);
    expect(res.g).toBe('你好，世界');
    expect(res.p).toMatch(
      /^\[in\/typed\.pdf: PDF; \d+ B; 1 page\]\n\n--- page 1 of 1 ---\nInvoice total 42\.00$/,
    );
    expect(res.s).toMatch(/^Error: This PDF has no text layer .*Use the ocr tool/);
    expect(r.stderr).not.toMatch(/Warning|Indexing/); // pdf.js stays quiet
  });
});
