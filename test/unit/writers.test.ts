import { describe, expect, it } from 'vitest';
import { textWidth } from '../../src/support/width.js';
import { csvField, encodeCsv } from '../../src/tools/files/writers/csv.js';
import { buildDocx, docxMarkdown, encodeDocx } from '../../src/tools/files/writers/docx.js';
import { encodeContent, formatOf, previewLines } from '../../src/tools/files/writers/index.js';
import { PayloadError, toTable } from '../../src/tools/files/writers/payload.js';
import { encodeXlsx, sanitizeSheetNames, toSheets, xlsxValue } from '../../src/tools/files/writers/xlsx.js';

async function payloadError(p: Promise<unknown> | (() => unknown)): Promise<string> {
  const err = await (typeof p === 'function' ? Promise.resolve().then(p) : p).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PayloadError);
  return (err as Error).message;
}

async function loadXlsx(data: Buffer) {
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(data as unknown as ArrayBuffer);
  return wb;
}

describe('formats by extension', () => {
  it('maps extensions, case-insensitively', () => {
    expect(formatOf('a/B.XLSX')).toBe('xlsx');
    expect(formatOf('notes.markdown')).toBe('md');
    expect(formatOf('x.pdf')).toBeUndefined();
    expect(formatOf('noext')).toBeUndefined();
  });
});

describe('.md / .txt / .json', () => {
  it('text is written as is, with a final newline', async () => {
    const r = await encodeContent('md', '# 标题\n正文');
    expect(r.data.toString('utf8')).toBe('# 标题\n正文\n');
    expect((await encodeContent('txt', { content: 'wrapped' })).data.toString()).toBe('wrapped\n');
    expect(await payloadError(encodeContent('txt', { rows: [] }))).toMatch(/\.txt file .*Expected a string/);
  });

  it('json pretty-prints any value; a JSON string is parsed', async () => {
    expect((await encodeContent('json', { a: [1, '二'] })).data.toString()).toBe(
      '{\n  "a": [\n    1,\n    "二"\n  ]\n}\n',
    );
    expect((await encodeContent('json', '{"a":1}')).data.toString()).toBe('{\n  "a": 1\n}\n');
    expect((await encodeContent('json', [1, 2])).data.toString()).toBe('[\n  1,\n  2\n]\n');
    expect(await payloadError(encodeContent('json', '{a:1}'))).toMatch(
      /not valid JSON.*Expected any JSON value/,
    );
  });
});

describe('.csv', () => {
  it('quotes correctly, uses CRLF and starts with a UTF-8 BOM', () => {
    const { data } = encodeCsv({
      headers: ['名称', 'note'],
      rows: [
        ['A, Inc.', 'say "hi"'],
        ['多行\n文本', null],
        [' padded', 12.5],
      ],
    });
    expect([...data.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(data.subarray(3).toString('utf8')).toBe(
      '名称,note\r\n"A, Inc.","say ""hi"""\r\n"多行\n文本",\r\n" padded",12.5\r\n',
    );
  });

  it('accepts rows as objects, a JSON string, and CSV text', () => {
    expect(
      encodeCsv({
        rows: [
          { a: 1, b: 2 },
          { b: 3, c: 4 },
        ],
      })
        .data.toString()
        .slice(1),
    ).toBe('a,b,c\r\n1,2,\r\n,3,4\r\n');
    expect(encodeCsv('{"headers":["x"],"rows":[[1]]}').data.toString().slice(1)).toBe('x\r\n1\r\n');
    expect(encodeCsv('a,b\n1,2\n').data.toString()).toBe('\uFEFFa,b\n1,2\n');
  });

  it('defuses cells a spreadsheet would run as formulas, but not numbers or phone numbers', () => {
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField("-cmd|' /C calc'!A0")).toBe("'-cmd|' /C calc'!A0");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('-12.5')).toBe('-12.5');
    expect(csvField('+86 138 0000 0000')).toBe('+86 138 0000 0000');
  });

  it('a malformed payload shows the expected shape', async () => {
    const msg = await payloadError(() => encodeCsv({ header: ['a'], lines: [] }));
    expect(msg).toContain('no "headers" or "rows"');
    expect(msg).toContain('Expected {"headers": ["Name", "Amount"]');
    expect(await payloadError(() => encodeCsv({ rows: 'a,b' }))).toMatch(/rows is a string/);
  });
});

describe('.xlsx values', () => {
  it('stores numbers as numbers, numeric text when it is safe', () => {
    expect(xlsxValue(42)).toEqual({ value: 42 });
    expect(xlsxValue('42')).toEqual({ value: 42 });
    expect(xlsxValue('3.50')).toEqual({ value: 3.5, numFmt: '0.00' });
    expect(xlsxValue('1,234.50')).toEqual({ value: 1234.5, numFmt: '#,##0.00' });
    expect(xlsxValue('-1,234')).toEqual({ value: -1234, numFmt: '#,##0' });
    expect(xlsxValue('12.5%')).toEqual({ value: 0.125, numFmt: '0.0%' });
    expect(xlsxValue('¥1,200')).toEqual({ value: 1200, numFmt: '"¥"#,##0' });
    expect(xlsxValue('2024-03-15').value).toEqual(new Date(Date.UTC(2024, 2, 15)));
  });

  it('keeps identifiers as text', () => {
    expect(xlsxValue('007')).toEqual({ value: '007' });
    expect(xlsxValue('110101199003071234')).toEqual({ value: '110101199003071234' }); // ID number: >15 digits
    expect(xlsxValue('13800138000')).toEqual({ value: '13800138000' }); // a phone number: 11 digits
    expect(xlsxValue('6222021234567890123')).toEqual({ value: '6222021234567890123' }); // an account
    expect(xlsxValue('12345', '工号')).toEqual({ value: '12345' }); // the header names an identifier
    expect(xlsxValue('12345', '数量')).toEqual({ value: 12345 });
    expect(xlsxValue('1,23')).toEqual({ value: '1,23', warning: 'not one number as written' });
    expect(xlsxValue('2024-02-30')).toEqual({ value: '2024-02-30' });
    expect(xlsxValue('2024年2月30日')).toEqual({ value: '2024年2月30日' });
  });

  it('turns Chinese dates and amounts into dates and numbers shown as written', () => {
    const day = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d));
    expect(xlsxValue('2024/3/16')).toEqual({ value: day(2024, 3, 16), numFmt: 'yyyy/m/d' });
    expect(xlsxValue('2024年3月17日')).toEqual({ value: day(2024, 3, 17), numFmt: 'yyyy"年"m"月"d"日"' });
    expect(xlsxValue('2024-3-5')).toEqual({ value: day(2024, 3, 5), numFmt: 'yyyy-m-d' });
    expect(xlsxValue('2024-03-16')).toEqual({ value: day(2024, 3, 16), numFmt: 'yyyy-mm-dd' });
    expect(xlsxValue('15000元')).toEqual({ value: 15000, numFmt: '#,##0"元"' });
    expect(xlsxValue('1,500.50元')).toEqual({ value: 1500.5, numFmt: '#,##0.00"元"' });
    expect(xlsxValue('1.2万')).toEqual({ value: 12_000, numFmt: '#,##0' }); // issue 45: never 1.2
    expect(xlsxValue('(1,500.00)')).toEqual({ value: -1500, numFmt: '#,##0.00;(#,##0.00)' });
    expect(xlsxValue('(¥200)')).toEqual({ value: -200, numFmt: '"¥"#,##0;("¥"#,##0)' });
  });

  it('a cell written as =… is a formula', () => {
    expect(xlsxValue('=SUM(A1:A2)')).toEqual({ value: { formula: 'SUM(A1:A2)' } });
    expect(xlsxValue('=')).toEqual({ value: '=' });
  });

  it('sanitises sheet names by Excel rules', () => {
    expect(
      sanitizeSheetNames([
        'a/b:c*?[d]',
        '',
        undefined,
        "'quoted'",
        'History',
        'x'.repeat(40),
        'Sales',
        'sales',
      ]),
    ).toEqual(['a_b_c___d_', 'Sheet2', 'Sheet3', 'quoted', 'History_', 'x'.repeat(31), 'Sales', 'sales (2)']);
  });

  it('accepts one sheet without the sheets wrapper, and a JSON string', () => {
    expect(toSheets({ headers: ['a'], rows: [[1]] })).toEqual([
      { name: 'Sheet1', headers: ['a'], rows: [[1]] },
    ]);
    expect(toSheets('{"sheets":[{"name":"S","rows":[[1,2]]}]}')[0]).toMatchObject({
      name: 'S',
      headers: [],
      rows: [[1, 2]],
    });
  });

  it('a malformed payload shows the expected shape', async () => {
    expect(await payloadError(() => toSheets('just text'))).toMatch(
      /content is text.*Expected \{"sheets": \[\{"name"/,
    );
    expect(await payloadError(() => toSheets({ sheets: {} }))).toMatch(/"sheets" is not an array/);
    expect(await payloadError(() => toSheets({ sheets: [] }))).toMatch(/at least one sheet/);
    expect(await payloadError(() => toSheets({ sheets: [{ name: 'a', rows: 5 }] }))).toMatch(
      /sheets\[0\]\.rows is a number/,
    );
    expect(await payloadError(() => toTable('xlsx', { rows: [[1], 'x', 7, { a: 1 }, () => 1] }))).toMatch(
      /rows\[4\]/,
    );
  });
});

describe('.xlsx files, read back with exceljs', () => {
  it('has the sheets, values, numbers as numbers, a bold frozen header and sensible widths', async () => {
    const { data, summary, notes } = await encodeXlsx({
      sheets: [
        {
          name: '销售/2024',
          headers: ['产品名称', 'Amount', '日期', '备注'],
          rows: [
            ['苹果', 12.5, '2024-03-15', '第一批'],
            ['梨', '1,234.50', '2024-03-16', null],
            ['一个非常长的产品名称用于测试列宽', 3, 'n/a', 'multi\nline'],
          ],
        },
        { name: 'Raw', rows: [{ k: 'a', v: 1 }] },
      ],
    });
    expect(summary).toBe('sheet "销售_2024" 3 rows, sheet "Raw" 1 row');
    expect(notes).toEqual([
      'sheet name "销售/2024" was changed to "销售_2024" (Excel\'s rules for sheet names)',
    ]);
    const wb = await loadXlsx(data);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['销售_2024', 'Raw']);
    const ws = wb.getWorksheet('销售_2024')!;
    expect(ws.getRow(1).values).toEqual([undefined, '产品名称', 'Amount', '日期', '备注']);
    expect(ws.getCell('A1').font?.bold).toBe(true);
    expect(ws.getCell('B1').font?.bold).toBe(true);
    expect(ws.getCell('A2').font?.bold).toBeFalsy();
    expect(ws.getCell('B2').value).toBe(12.5);
    expect(ws.getCell('B3').value).toBe(1234.5);
    expect(ws.getCell('B3').numFmt).toBe('#,##0.00');
    expect(ws.getCell('C2').value).toEqual(new Date(Date.UTC(2024, 2, 15)));
    expect(ws.getCell('C4').value).toBe('n/a');
    expect(ws.getCell('D4').alignment?.wrapText).toBe(true);
    expect(ws.getRow(4).height).toBe(30); // room for the two lines
    expect(ws.getRow(3).height).toBeUndefined();
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    // CJK text is twice as wide: the 16-character name needs a ~34-wide column, "Amount" far less
    expect(ws.getColumn(1).width).toBeGreaterThanOrEqual(32);
    expect(ws.getColumn(2).width).toBeLessThan(16);
    const raw = wb.getWorksheet('Raw')!;
    expect(raw.getRow(1).values).toEqual([undefined, 'k', 'v']);
    expect(raw.getCell('B2').value).toBe(1);
  });
});

describe('.docx files, read back with mammoth', () => {
  it('maps headings, paragraphs, bold/italic, lists, tables and code', async () => {
    const md = [
      '# 年度报告',
      '',
      '这是 **加粗** 和 *斜体* 以及 `code` 的段落。',
      '',
      '## Findings',
      '',
      '- 第一点',
      '- second point',
      '  - nested',
      '',
      '1. step one',
      '2. step two',
      '',
      '| 名称 | 金额 |',
      '| --- | ---: |',
      '| A | 1,234 |',
      '',
      '```',
      'const x = 1;',
      'console.log(x);',
      '```',
      '',
      '> a quote',
      '',
      '---',
      'Tom &amp; Jerry <b>tag</b> [link](https://example.com)',
    ].join('\n');
    const data = await buildDocx(md);
    const { default: mammoth } = await import('mammoth');
    const html = (await mammoth.convertToHtml({ buffer: data })).value;
    expect(html).toContain('<h1>年度报告</h1>');
    expect(html).toContain('<h2>Findings</h2>');
    expect(html).toContain('<strong>加粗</strong>');
    expect(html).toContain('<em>斜体</em>');
    expect(html).toMatch(/<ul><li>第一点<\/li><li>second point<ul><li>nested<\/li><\/ul><\/li><\/ul>/);
    expect(html).toContain('<ol><li>step one</li><li>step two</li></ol>');
    expect(html).toContain(
      '<table><thead><tr><th><p><strong>名称</strong></p></th><th><p><strong>金额</strong></p></th></tr></thead><tbody><tr><td><p>A</p></td><td><p>1,234</p></td></tr></tbody></table>',
    );
    expect(html).toContain('const x = 1;<br />console.log(x);');
    expect(html).toContain('<a href="https://example.com">link</a>');
    expect(html).toContain('Tom &amp; Jerry');
    const raw = (await mammoth.extractRawText({ buffer: data })).value;
    expect(raw).toContain('a quote');
  });

  it('odd Markdown never breaks the document', async () => {
    const md = [
      '###### six',
      '####### not a heading',
      '- bullet',
      '  1. nested number',
      '  2. nested number',
      '- [x] done task',
      '- [ ] open task',
      '',
      '| a | **b** |',
      '| - | - |',
      '| | `c` |',
      '| only one |',
      '',
      '<div>html block</div>',
      '',
      '![alt text](pic.png) and [relative](docs/a.md) and a line  ',
      'break',
      '',
      '1986\\. not a list',
    ].join('\n');
    const data = await buildDocx(md);
    const { default: mammoth } = await import('mammoth');
    const html = (await mammoth.convertToHtml({ buffer: data })).value;
    expect(html).toContain('<h6>six</h6>');
    expect(html).toContain('####### not a heading');
    expect(html).toMatch(/<li>bullet<ol><li>nested number<\/li><li>nested number<\/li><\/ol><\/li>/);
    expect(html).toContain('☑ done task');
    expect(html).toContain('☐ open task');
    expect(html).toContain('html block');
    expect(html).toContain('[image: alt text]');
    expect(html).toContain('relative');
  });

  it('numbered lists each start at 1', async () => {
    const data = await buildDocx('1. a\n2. b\n\nbetween\n\n1. c\n2. d\n');
    const xml = await (async () => {
      const { default: JSZip } = await import('jszip');
      const zip = await JSZip.loadAsync(data);
      return zip.file('word/document.xml')!.async('string');
    })();
    const numIds = [...xml.matchAll(/<w:numId w:val="(\d+)"\/>/g)].map((m) => m[1]);
    expect(numIds).toHaveLength(4);
    expect(numIds[0]).toBe(numIds[1]);
    expect(numIds[2]).toBe(numIds[3]);
    expect(numIds[0]).not.toBe(numIds[2]);
  });

  it('accepts {content}, a bare Markdown string, and says what is wrong otherwise', async () => {
    expect(docxMarkdown({ content: '# x' })).toBe('# x');
    expect(docxMarkdown('# y')).toBe('# y');
    expect(docxMarkdown('{"content":"# z"}')).toBe('# z');
    expect(await payloadError(() => docxMarkdown({ text: 5 }))).toMatch(
      /"content" is a number.*Expected \{"content": "# Title/,
    );
    expect(await payloadError(() => docxMarkdown([1]))).toMatch(/content is an array/);
    const r = await encodeDocx({ content: '' });
    expect(r.data.length).toBeGreaterThan(1000);
  });
});

describe('text width for column sizes', () => {
  it('counts CJK and full-width characters double, combining marks zero', () => {
    expect(textWidth('abc')).toBe(3);
    expect(textWidth('产品名称')).toBe(8);
    expect(textWidth('ＡＢ，')).toBe(6);
    expect(textWidth('한국')).toBe(4);
    expect(textWidth('e\u0301')).toBe(1);
    expect(textWidth('𠀀')).toBe(2);
  });
});

describe('previews for the permission prompt', () => {
  it('show the first lines of a table or a text', () => {
    expect(
      previewLines('xlsx', {
        sheets: [
          {
            name: 'S',
            headers: ['a', 'b'],
            rows: [
              [1, 2],
              [3, null],
            ],
          },
        ],
      }),
    ).toEqual(['a | b', '1 | 2', '3 | ']);
    expect(previewLines('md', 'l1\nl2\nl3', 2)).toEqual(['l1', 'l2']);
    expect(previewLines('docx', { content: '# T\nbody' })).toEqual(['# T', 'body']);
    expect(previewLines('json', '{"a":1}')).toEqual(['{', '  "a": 1', '}']);
  });
});
