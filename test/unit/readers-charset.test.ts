import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayEncoding } from '../../src/tools/files/readers/charset.js';
import { readDocument } from '../../src/tools/files/readers/index.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

/** Real files from chardet's test suite (test/fixtures/real/charset, MIT, see LICENSE there). */
const REAL = join(import.meta.dirname, '../fixtures/real/charset');

let dir: string;
beforeAll(() => {
  dir = tempDir('zhi-charset-');
});
afterAll(() => cleanup(dir));

const CASES: [file: string, encoding: string, expected: string, note: RegExp][] = [
  ['big5', 'big5', '政府資訊科技總監辦公室和平等機會委員會合辦無障礙網頁嘉許計劃', /Big5/],
  ['shiftjis', 'shift_jis', 'コンピューターは、本質的には数字しか扱うことができません。', /Shift-JIS/],
  ['euc_jp', 'euc-jp', '英語は他の多くのヨーロッパ言語が持っている名詞の格変化', /EUC-JP/],
  ['euc_kr', 'euc-kr', '기본적으로 컴퓨터는 숫자만 처리합니다.', /EUC-KR/],
  ['iso2022jp', 'iso-2022-jp', 'コンピューターは、本質的には数字しか扱うことができません。', /ISO-2022-JP/],
  ['gb18030', 'gb18030', '基本上，计算机只是处理数字。', /GB18030/],
  ['utf32le', 'utf-32le', 'Greek: Μπορώ να φάω σπασμένα γυαλιά', /UTF-32LE/],
  ['utf32be', 'utf-32be', 'Greek: Μπορώ να φάω σπασμένα γυαλιά', /UTF-32BE/],
  ['utf16le', 'utf-16le', 'Euro Symbol: €.', /UTF-16LE/],
  // This file carries a big-endian BOM in front of little-endian text: the bytes win.
  ['utf16be', 'utf-16le', 'Euro Symbol: €.', /UTF-16LE/],
  ['windows_1252', 'windows-1252', 'What is Unicode?', /Windows-1252/],
];

describe('real files in legacy and wide encodings (chardet test suite)', () => {
  for (const [name, encoding, expected, note] of CASES) {
    it(`${name} is read as ${encoding}`, async () => {
      const doc = await readDocument(join(REAL, name));
      expect(doc.encoding).toBe(encoding);
      expect(doc.text).toContain(expected);
      expect(doc.text).not.toContain('\uFFFD');
      expect(doc.text).not.toContain('\u0000');
      expect(doc.notes).toEqual([]); // detected with confidence: nothing to warn about
      expect(note.test(displayEncoding(encoding))).toBe(true);
    });
  }

  it('UTF-8 needs no note', async () => {
    const doc = await readDocument(join(REAL, 'utf8'));
    expect(doc).toMatchObject({ encoding: 'utf-8', notes: [] });
    expect(doc.text).toContain('Euro Symbol: €.');
  });

  it('windows-1252 punctuation in 0x80–0x9F becomes “ ” € —, not control characters', async () => {
    const p = join(dir, 'quotes.txt');
    writeFileSync(
      p,
      Buffer.from('He said \x93price \x80 5\x94 \x97 na\xefve and caf\xe9. '.repeat(8), 'latin1'),
    );
    const doc = await readDocument(p);
    expect(doc.encoding).toBe('windows-1252');
    expect(doc.text).toContain('He said “price € 5” — naïve and café.');
    expect(doc.text).not.toMatch(/[\u0080-\u009f]/);
  });

  it('UTF-16BE without a BOM (made from the UTF-8 file) is text, not "binary"', async () => {
    const p = join(dir, 'be-nobom.txt');
    writeFileSync(p, Buffer.from(readFileSync(join(REAL, 'utf8'), 'utf8'), 'utf16le').swap16());
    const doc = await readDocument(p);
    expect(doc.encoding).toBe('utf-16be');
    expect(doc.text).toContain('Greek: Μπορώ να φάω');
  });

  it('UTF-16 CJK text without a BOM (zero bytes in both halves) is still recognised', async () => {
    const p = join(dir, 'cjk16.txt');
    writeFileSync(p, Buffer.from('一丁七 ordinary text 万丈三 more words here\n'.repeat(20), 'utf16le'));
    const doc = await readDocument(p);
    expect(doc.encoding).toBe('utf-16le');
    expect(doc.text).toContain('一丁七 ordinary text 万丈三');
  });

  it('too little text to tell: a short GBK note is still read as Chinese, and a guess is said to be one', async () => {
    const gbk = join(dir, 'short.txt');
    writeFileSync(gbk, Buffer.from('c4e3bac3a3accac0bde7', 'hex')); // 你好，世界
    const doc = await readDocument(gbk);
    expect(doc.text).toBe('你好，世界');
    const latin = join(dir, 'latin.txt');
    writeFileSync(latin, Buffer.from('caf\xe9 ok', 'latin1'));
    const guess = await readDocument(latin);
    expect(guess.text).toBe('café ok');
    expect(guess.notes.join()).toMatch(
      /read as Windows-1252 .*a guess: if the text looks wrong, ask the user/,
    );
  });

  it('a short Shift-JIS note is not taken for GB18030 without saying it is a guess', async () => {
    const sjis = join(dir, 'memo.txt');
    writeFileSync(sjis, iconv.encode('お疲れ様です', 'shift_jis'));
    const doc = await readDocument(sjis);
    expect(doc.text).toBe('お疲れ様です');
    expect(doc.notes.join()).toMatch(/a guess/);
  });

  it('a short GBK CSV the statistics take for Greek is read as Chinese, said to be a guess', async () => {
    const csv = join(dir, 'short.csv');
    writeFileSync(csv, iconv.encode('客户,金额\n华东,1200\n', 'gbk'));
    const doc = await readDocument(csv);
    expect(doc.text).toBe('客户,金额\n华东,1200\n');
    expect(doc.notes.join()).toMatch(/read as GBK\/GB18030.*a guess/);
    // A longer Shift-JIS CSV stays Japanese.
    const sjis = join(dir, 'order.csv');
    writeFileSync(sjis, iconv.encode('品名,数量,単価\nりんご,3,120\nみかん,5,80\n', 'shift_jis'));
    expect((await readDocument(sjis)).text).toContain('りんご,3,120');
  });

  // Issue 45: short Shift-JIS CSVs, all kanji or with kana, were read as Chinese mojibake with no note.
  const SHORT_JAPANESE = [
    '氏名,金額\n田中,100\n',
    '名前,住所\n山田太郎,東京都\n',
    'コード,名前\nA1,テスト\n',
    '商品名,価格,在庫\n東京,1200,5\n大阪,800,3\n',
    '社員番号,氏名,部署\n1,佐藤,営業部\n2,鈴木,経理部\n',
  ];
  it.each(
    SHORT_JAPANESE,
  )('a short Shift-JIS CSV is read as Japanese, said to be a guess: %j', async (text) => {
    const csv = join(dir, 'jp.csv');
    writeFileSync(csv, iconv.encode(text, 'shift_jis'));
    const doc = await readDocument(csv);
    expect(doc.text).toBe(text);
    expect(doc.notes.join()).toMatch(/read as Shift-JIS \(Japanese\), a guess/);
  });

  const SHORT_CHINESE = [
    '客户,金额\n华东,1200\n',
    '姓名,部门\n李四,销售部\n',
    '商品名称,价格\n苹果,5\n',
    '日期,摘要,金额\n2024-01-02,差旅费,350\n',
    '氏名,金额\n田中,100\n',
  ];
  it.each(SHORT_CHINESE)('a short GBK CSV stays Chinese: %j', async (text) => {
    const csv = join(dir, 'cn.csv');
    writeFileSync(csv, iconv.encode(text, 'gbk'));
    expect((await readDocument(csv)).text).toBe(text);
  });
});
