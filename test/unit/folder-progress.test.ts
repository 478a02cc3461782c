import { afterEach, describe, expect, it } from 'vitest';
import type { FolderEvent } from '../../src/agent/folder/events.js';
import {
  FolderProgress,
  formatLeft,
  longDocumentLines,
  skippedParts,
} from '../../src/cli/render/progress.js';
import { makeStyle } from '../../src/cli/render/style.js';
import { setLanguage } from '../../src/support/i18n/index.js';
import { cutToWidth } from '../../src/support/width.js';

afterEach(() => setLanguage('en'));

function harness(live: boolean, columns = 100) {
  const lines: string[] = [];
  const raw: string[] = [];
  let now = 0;
  const p = new FolderProgress({
    err: makeStyle(false),
    live,
    line: (l) => lines.push(l),
    raw: (r) => raw.push(r),
    columns: () => columns,
    now: () => now,
  });
  return { p, lines, raw, tick: (ms: number) => (now += ms) };
}

const counts = (done: number, failed: number, total = 500, earlier = 0) => ({ total, done, failed, earlier });
const file = (
  status: 'started' | 'done' | 'failed' | 'part',
  name: string,
  c: ReturnType<typeof counts>,
  extra = {},
): FolderEvent => ({
  type: 'folder_file',
  skill: 'summarize',
  file: name,
  index: 0,
  status,
  counts: c,
  spent: 0.41,
  ...extra,
});
const start: FolderEvent = {
  type: 'folder_start',
  skill: 'summarize',
  counts: counts(0, 0, 500, 5),
  todo: 495,
  jobs: 4,
  manifest: 'zhi-output/.zhi-runs/x.json',
  skillChanged: false,
  currency: 'CNY',
};

describe('FolderProgress', () => {
  it('draws the live line: counter, percent, marks, cost so far, time left and the file in progress', () => {
    const h = harness(true);
    h.p.handle(start);
    h.tick(1000);
    h.p.handle(file('started', 'docs/report.pdf', counts(129, 2, 500, 5)));
    h.p.handle(file('done', 'docs/a.pdf', counts(130, 2, 500, 5)));
    h.p.handle(file('started', 'docs/report.pdf', counts(130, 2, 500, 5)));
    expect(h.p.lineText()).toBe('[137/500] 27%  ✓ 135  ✗ 2 · ¥0.41 so far · about 6 min left');
    expect(h.raw.at(-1)).toBe(
      '\r\x1b[2K[137/500] 27%  ✓ 135  ✗ 2 · ¥0.41 so far · about 6 min left · docs/report.pdf',
    );
    expect(h.lines).toEqual([
      '495 of 500 files to process, 4 at a time',
      '5 already done by an earlier run (skipped; --force redoes them)',
    ]);
  });

  it("shows a long document's parts on the live line, in place; piped, a line every few parts", () => {
    const live = harness(true);
    live.p.handle(start);
    live.p.handle(file('started', 'docs/big.txt', counts(0, 0, 3)));
    live.p.handle(file('started', 'docs/small.txt', counts(0, 0, 3)));
    const part = (done: number, round = 0) =>
      file('part', 'docs/big.txt', counts(0, 0, 3), { part: { done, total: 12, round } });
    for (let i = 1; i <= 3; i++) live.p.handle(part(i));
    // The long document is shown (not the file started after it), redrawn in place: no new lines.
    expect(live.raw.at(-1)).toMatch(/^\r\x1b\[2K\[0\/3\] 0%.* · docs\/big\.txt part 3\/12$/);
    expect(live.lines).toHaveLength(2); // the two start lines only
    live.p.handle(part(1, 1));
    expect(live.raw.at(-1)).toMatch(/docs\/big\.txt combining 1\/12$/);
    live.p.handle(file('done', 'docs/big.txt', counts(1, 0, 3)));
    expect(live.raw.at(-1)).toMatch(/ · docs\/small\.txt$/);

    const piped = harness(false);
    piped.p.handle(start);
    piped.p.handle(file('started', 'docs/big.txt', counts(0, 0, 3)));
    for (let i = 1; i <= 12; i++) piped.p.handle(part(i));
    expect(piped.lines.slice(2)).toEqual([
      '  docs/big.txt: part 5/12',
      '  docs/big.txt: part 10/12',
      '  docs/big.txt: part 12/12',
    ]);
    expect(piped.raw).toEqual([]);

    setLanguage('zh');
    piped.p.handle(part(5));
    expect(piped.lines.at(-1)).toBe('  docs/big.txt: 第 5/12 部分');
  });

  it('never lets the live line wrap on a narrow terminal', () => {
    const h = harness(true, 40);
    h.p.handle(start);
    h.p.handle(file('started', 'docs/一个非常非常长的中文文件名称的报告.pdf', counts(0, 0)));
    expect(h.raw.at(-1)!.replace('\r\x1b[2K', '').length).toBeLessThanOrEqual(39);
  });

  it('piped: one plain line per finished file, failures with their reason, then the tables', () => {
    const h = harness(false);
    h.p.handle(start);
    h.p.handle(file('done', 'docs/a.txt', counts(1, 0, 3)));
    h.p.handle(file('failed', 'docs/b.txt', counts(1, 1, 3), { reason: 'unreadable' }));
    h.p.handle({
      type: 'folder_end',
      skill: 'summarize',
      counts: counts(1, 1, 3),
      spent: 0,
      currency: 'CNY',
      failures: [{ file: 'docs/b.txt', reason: 'unreadable' }],
      outputs: [{ file: 'docs/a.txt', outputs: ['zhi-output/a-summary.md'] }],
      notStarted: 1,
      interrupted: 2,
      manifest: 'zhi-output/.zhi-runs/x.json',
    });
    expect(h.raw).toEqual([]);
    expect(h.lines.slice(2)).toEqual([
      '[1/3] ✓ docs/a.txt',
      '✗ docs/b.txt: unreadable',
      'Files that failed (1):',
      '  docs/b.txt  unreadable',
      'Written (1 files):',
      '  docs/a.txt → zhi-output/a-summary.md',
      '2 files were stopped mid-way; run the same command again to do them again from the start.',
      '1 files were not started; run the same command again to do them.',
      'Run record: zhi-output/.zhi-runs/x.json',
    ]);
  });

  it('a long run ends with counts, where the outputs are and the failures grouped by reason (a few files each), en + zh', () => {
    const end = (): FolderEvent => ({
      type: 'folder_end',
      skill: 'summarize',
      counts: counts(40, 14, 54),
      spent: 1,
      currency: 'CNY',
      failures: [
        ...Array.from({ length: 12 }, (_, i) => ({
          file: `docs/r${i}.txt`,
          reason: 'not written: file_write was refused',
        })),
        { file: 'docs/x.pdf', reason: 'unreadable' },
        { file: 'docs/y.pdf', reason: 'unreadable' },
      ],
      outputs: Array.from({ length: 40 }, (_, i) => ({
        file: `docs/d${i}.txt`,
        outputs: [`zhi-output/d${i}-summary.md`],
      })),
      notStarted: 0,
      interrupted: 0,
      manifest: 'zhi-output/.zhi-runs/x.json',
      saved: 1,
    });
    const h = harness(false);
    h.p.handle(end());
    expect(h.lines).toEqual([
      'Files that failed (14):',
      '  12 × not written: file_write was refused',
      '    docs/r0.txt, docs/r1.txt, docs/r2.txt and 9 more',
      '  2 × unreadable',
      '    docs/x.pdf, docs/y.pdf',
      'Written: 40 files, in zhi-output/',
      'Batch API: ¥1.00 saved (50 % less than the same calls online).',
      'Run record: zhi-output/.zhi-runs/x.json',
    ]);
    setLanguage('zh');
    const zh = harness(false);
    zh.p.handle(end());
    expect(zh.lines).toContain('已写入 40 个文件，位于 zhi-output/');
    expect(zh.lines).toContain('    docs/r0.txt, docs/r1.txt, docs/r2.txt 等另外 9 个');
  });

  it('a run without failures says nothing about failing', () => {
    const h = harness(false);
    h.p.handle({
      type: 'folder_end',
      skill: 'summarize',
      counts: counts(30, 0, 30),
      spent: 0,
      currency: 'CNY',
      failures: [],
      outputs: Array.from({ length: 30 }, (_, i) => ({ file: `d${i}.txt`, outputs: [`out/d${i}.md`] })),
      notStarted: 0,
      interrupted: 0,
      manifest: 'out/.zhi-runs/x.json',
    });
    expect(h.lines.join('\n')).not.toMatch(/fail/i);
    expect(h.lines[0]).toBe('Written: 30 files, in out/');
  });

  it('speaks Chinese', () => {
    setLanguage('zh');
    const h = harness(false);
    h.p.handle(start);
    expect(h.lines[0]).toBe('共 500 个文件，本次处理 495 个，每次同时 4 个');
  });

  it('shows control characters in file names instead of obeying them', () => {
    const h = harness(false);
    h.p.handle(file('failed', 'docs/\x1b[2Jevil.txt', counts(0, 1, 1), { reason: 'x' }));
    expect(h.lines[0]).not.toContain('\x1b');
  });

  it('formats times and cuts by columns', () => {
    expect(formatLeft(30_000)).toBe('30 s');
    expect(formatLeft(6 * 60_000)).toBe('6 min');
    expect(cutToWidth('中文文件名', 5)).toBe('中文…');
  });
});

describe('the long-document line', () => {
  const ev = (joined: boolean): Extract<FolderEvent, { type: 'long_document' }> => ({
    type: 'long_document',
    skill: 'translate',
    file: 'long.md',
    parts: 5,
    ...(joined ? { joined: true as const } : {}),
    estimate: 0.1,
    tokens: { input: 1000, output: 1000 },
    currency: 'CNY',
  });

  it('says a translation is joined in order, a summary combined (en and zh)', () => {
    const st = makeStyle(false);
    expect(longDocumentLines(ev(true), st)).toEqual([
      'Long document long.md: 5 parts, processed separately and then joined in order.',
    ]);
    expect(longDocumentLines(ev(false), st)[0]).toContain('then combined.');
    setLanguage('zh');
    expect(longDocumentLines(ev(true), st)[0]).toBe('长文档 long.md：分为 5 部分分别处理，再按顺序拼接。');
  });
});

describe('skipped files', () => {
  it('names only the kinds there are (no "0 of other kinds")', () => {
    expect(skippedParts(3, 3)).toBe('3 empty');
    expect(skippedParts(2, 0)).toBe('2 of other kinds');
    expect(skippedParts(5, 2)).toBe('2 empty, 3 of other kinds');
    setLanguage('zh');
    expect(skippedParts(3, 3)).toBe('3 个空文件');
    expect(skippedParts(5, 2)).toBe('2 个空文件，3 个其他类型');
  });
});
