/**
 * Each built-in skill's tool flow against the fake API: the request carries the skill's prompt
 * and only its tools; its inputs arrive in the first message; the files its recipe names are
 * written in the format its prompt promises (the fake model follows the recipe).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FakeToolCall, RecordedRequest, Reply } from '../fake-zhipu/server.js';
import { useE2E } from '../helpers/e2e.js';

const e = useE2E();
const { fake } = e;
let home: string;
let work: string;
beforeEach(() => {
  ({ home, cwd: work } = e);
});

/** Which skill a request belongs to, by the first words of its system prompt. */
const PROMPTS: Record<string, string> = {
  summarize: 'You summarize documents',
  translate: 'You are a professional translator',
  'extract-text': 'You turn text recognised',
  'extract-table': 'You extract tables',
  analyze: 'You are a careful analyst',
  proofread: 'You are a meticulous proofreader',
  reformat: 'You convert a document',
  'meeting-notes': 'You write clear meeting minutes',
  compare: 'You compare two documents',
  'translate-proofread': 'You produce a checked translation',
  'meeting-followup': 'You prepare the follow-up',
  'invoice-to-excel': 'You build one Excel workbook',
  'daily-digest': 'You write a daily digest',
  'contract-review': 'You review a contract',
  'report-polish': 'You polish a report',
};

const skillOf = (req: RecordedRequest) =>
  Object.entries(PROMPTS).find(([, p]) => String(req.body.messages[0].content).startsWith(p))?.[0] ?? 'chat';

/** Per skill, the replies of its turns in order (a nested skill has its own queue). */
function follow(plan: Record<string, Reply[]>): void {
  fake.fallback = (req) =>
    plan[skillOf(req)]?.shift() ?? { kind: 'text', text: `(no more replies for ${skillOf(req)})` };
}
const write = (path: string, content: unknown): Reply => ({
  kind: 'tools',
  calls: [{ name: 'file_write', arguments: { path, content } }],
});
const calls = (...c: FakeToolCall[]): Reply => ({ kind: 'tools', calls: c });
const say = (text: string): Reply => ({ kind: 'text', text });

const zhi = (args: string[]) => e.zhi([...args, '--auto']);
const out = (name: string) => join(work, 'zhi-output', name);
const toolsOf = (skill: string) => {
  const req = fake.requests.find((r) => r.path.endsWith('/chat/completions') && skillOf(r) === skill);
  return ((req?.body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name).sort();
};
const firstUser = (skill: string): string =>
  fake.requests.find((r) => r.path.endsWith('/chat/completions') && skillOf(r) === skill)?.body.messages[1]
    .content ?? '';
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64)]);

async function sheets(file: string): Promise<Record<string, unknown[][]>> {
  const ExcelJS = (await import('exceljs')).default;
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  const result: Record<string, unknown[][]> = {};
  for (const ws of wb.worksheets) {
    const rows: unknown[][] = [];
    ws.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    result[ws.name] = rows;
  }
  return result;
}

describe('single-purpose built-in skills', () => {
  it('translate: a Word file becomes a Word translation; --to reaches the model', async () => {
    const d = await import('docx');
    const doc = new d.Document({
      sections: [{ children: [new d.Paragraph('合同草案'), new d.Paragraph('付款期限为三十天。')] }],
    });
    writeFileSync(join(work, 'draft.docx'), await d.Packer.toBuffer(doc));
    follow({
      translate: [
        write('draft.en.docx', { content: '# Draft contract\n\nPayment is due in 30 days.' }),
        say('Draft contract\n\nPayment is due in 30 days.'),
      ],
    });
    const r = await zhi(['run', 'translate', 'draft.docx', '--to', 'English']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Draft contract\n\nPayment is due in 30 days.\n');
    expect(toolsOf('translate')).toEqual(['file_write', 'ocr']);
    expect(firstUser('translate')).toContain('- file: draft.docx (Word document');
    expect(firstUser('translate')).toContain('付款期限为三十天。');
    expect(firstUser('translate')).toContain('- to: English');
    expect(readFileSync(out('draft.en.docx')).subarray(0, 2).toString()).toBe('PK');
  });

  it('extract-text: a photo is read with OCR before the model sees it; the clean text is written', async () => {
    writeFileSync(join(work, 'scan.png'), PNG);
    fake.scriptOcr({ md: 'Quarterly re-\nport\n\nPage 1' });
    follow({ 'extract-text': [write('scan.md', 'Quarterly report'), say('Quarterly report')] });
    const r = await zhi(['run', 'extract-text', 'scan.png']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('OCR scan.png');
    expect(firstUser('extract-text')).toContain(
      '- file: scan.png (an image, read with OCR; its text is below)',
    );
    expect(firstUser('extract-text')).toContain('Quarterly re-\nport');
    expect(readFileSync(out('scan.md'), 'utf8')).toBe('Quarterly report\n');
    expect(fake.requests.filter((q) => q.path.endsWith('/layout_parsing'))).toHaveLength(1);
  });

  it('a skill without ocr refuses a photo with a way forward; other image types are refused', async () => {
    writeFileSync(join(work, 'scan.png'), PNG);
    mkdirSync(join(home, 'skills'));
    writeFileSync(
      join(home, 'skills', 'plain.yaml'),
      'name: plain\ndescription: d\nsystem_prompt: p\ntools: []\ninput:\n  args:\n    - {name: file, type: file, required: true}\n',
    );
    const r = await zhi(['run', 'plain', 'scan.png']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('scan.png is an image or a scanned document');
    expect(r.stderr).toContain('zhi run extract-text scan.png');
    writeFileSync(join(work, 'pic.gif'), 'GIF89a');
    const gif = await zhi(['run', 'summarize', 'pic.gif']);
    expect(gif.code).toBe(2);
    expect(gif.stderr).toContain('only PNG, JPG and PDF');
    expect(fake.requests).toHaveLength(0);
  });

  it('extract-table: tables to one workbook (numbers as numbers), or to CSV files', async () => {
    writeFileSync(
      join(work, 'prices.md'),
      '| Item | Price |\n|---|---|\n| Tea | ¥1,234.50 |\n| Rice | 8 |\n',
    );
    const sheet = {
      sheets: [
        {
          name: 'Prices',
          headers: ['Item', 'Price'],
          rows: [
            ['Tea', 1234.5],
            ['Rice', 8],
          ],
        },
      ],
    };
    follow({
      'extract-table': [
        write('prices-tables.xlsx', sheet),
        say(
          '### Prices\n\n| Item | Price |\n|---|---|\n| Tea | 1234.5 |\n| Rice | 8 |\n\nprices-tables.xlsx',
        ),
      ],
    });
    const r = await zhi(['run', 'extract-table', 'prices.md']);
    expect(r.code).toBe(0);
    expect(firstUser('extract-table')).toContain('- format: xlsx');
    expect(await sheets(out('prices-tables.xlsx'))).toEqual({
      Prices: [
        ['Item', 'Price'],
        ['Tea', 1234.5],
        ['Rice', 8],
      ],
    });

    fake.reset();
    follow({
      'extract-table': [
        write('prices-table-1.csv', { headers: ['Item', 'Price'], rows: [['Tea', 1234.5]] }),
        say('done'),
      ],
    });
    const csv = await zhi(['run', 'extract-table', 'prices.md', '--format', 'csv']);
    expect(csv.code).toBe(0);
    expect(readFileSync(out('prices-table-1.csv'), 'utf8')).toContain('Item,Price');
  });

  it('analyze, with a focus', async () => {
    writeFileSync(join(work, 'plan.md'), '# Plan\n\nWe will grow 300% next year.');
    follow({ analyze: [write('plan-analysis.md', '# Analysis: Plan'), say('# Analysis: Plan')] });
    const r = await zhi(['run', 'analyze', 'plan.md', '--focus', 'risks']);
    expect(r.code).toBe(0);
    expect(firstUser('analyze')).toContain('- focus: risks');
    expect(existsSync(out('plan-analysis.md'))).toBe(true);
  });

  it('proofread text given with --text: a report, no file', async () => {
    follow({
      proofread: [
        say(
          '| # | Where | Original | Correction | Reason |\n|---|---|---|---|---|\n| 1 | 1 | teh | the | typo |',
        ),
      ],
    });
    const r = await zhi(['run', 'proofread', '--text', 'teh cat']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('| 1 | 1 | teh | the | typo |');
    expect(firstUser('proofread')).toContain('- text: teh cat');
    expect(existsSync(join(work, 'zhi-output'))).toBe(false);
  });

  it('reformat: Markdown to Word', async () => {
    writeFileSync(join(work, 'notes.md'), '# Notes\n\n- one\n- two\n');
    follow({
      reformat: [
        write('notes.docx', { content: '# Notes\n\n- one\n- two\n' }),
        say('Wrote notes.docx (Word).'),
      ],
    });
    const r = await zhi(['run', 'reformat', 'notes.md', '--to', 'docx']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Wrote notes.docx (Word).\n');
    expect(readFileSync(out('notes.docx')).subarray(0, 2).toString()).toBe('PK');
  });

  it('meeting-notes: minutes with an action-item table, as Word', async () => {
    writeFileSync(join(work, 'standup.txt'), 'Bob: I will fix the login bug by Monday.');
    const minutes =
      '# Meeting minutes: standup\n\n## Action items\n| # | Action | Owner | Due date | Status |\n|---|---|---|---|---|\n| 1 | Fix the login bug | Bob | Monday | Open |';
    follow({ 'meeting-notes': [write('standup-minutes.docx', { content: minutes }), say(minutes)] });
    const r = await zhi(['run', 'meeting-notes', 'standup.txt', '--format', 'docx']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('| 1 | Fix the login bug | Bob | Monday | Open |');
    expect(existsSync(out('standup-minutes.docx'))).toBe(true);
  });

  it('compare: both documents reach the model, original first', async () => {
    writeFileSync(join(work, 'v1.md'), 'Price: 100');
    writeFileSync(join(work, 'v2.md'), 'Price: 120');
    follow({ compare: [write('v1-vs-v2.md', '# Comparison'), say('# Comparison: v1.md → v2.md')] });
    const r = await zhi(['run', 'compare', 'v1.md', 'v2.md']);
    expect(r.code).toBe(0);
    const msg = firstUser('compare');
    expect(msg.indexOf('<document name="v1.md">')).toBeLessThan(msg.indexOf('<document name="v2.md">'));
    expect(existsSync(out('v1-vs-v2.md'))).toBe(true);
  });
});

describe('composite built-in skills', () => {
  it('meeting-followup: minutes (written by meeting-notes) → follow-up (summarize) → translation', async () => {
    writeFileSync(join(work, 'sync.txt'), 'We decided to launch on May 1. Ann prepares the slides.');
    follow({
      'meeting-followup': [
        calls({
          name: 'skill_meeting-notes',
          arguments: { file: 'sync.txt', instructions: 'Write the minutes file as usual.' },
        }),
        calls({
          name: 'skill_summarize',
          arguments: { text: 'MINUTES', length: 'short', instructions: 'follow-up' },
        }),
        calls({ name: 'skill_translate', arguments: { text: 'Thanks all. Launch May 1.', to: 'Chinese' } }),
        write('sync-followup.md', 'Thanks all. Launch May 1.\n\n---\n谢谢大家。5月1日发布。'),
        say('Thanks all. Launch May 1.'),
      ],
      'meeting-notes': [write('sync-minutes.md', 'MINUTES'), say('MINUTES')],
      summarize: [say('Thanks all. Launch May 1.')],
      translate: [say('谢谢大家。5月1日发布。')],
    });
    const r = await zhi(['run', 'meeting-followup', 'sync.txt', '--to', 'Chinese']);
    expect(r.code).toBe(0);
    expect(toolsOf('meeting-followup')).toEqual([
      'file_write',
      'skill_meeting-notes',
      'skill_summarize',
      'skill_translate',
    ]);
    expect(firstUser('meeting-notes')).toContain('Instructions: Write the minutes file as usual.');
    expect(firstUser('summarize')).toContain('- length: short');
    expect(existsSync(out('sync-minutes.md'))).toBe(true);
    expect(existsSync(out('sync-followup.md'))).toBe(true);
    expect(r.stderr).toMatch(/↳|>/);
  });

  it('daily-digest: summarize runs on each document, then one digest is written', async () => {
    mkdirSync(join(work, 'today'));
    writeFileSync(join(work, 'today', 'a.md'), 'Sales up 5%.');
    writeFileSync(join(work, 'today', 'b.md'), 'Server outage at 3pm.');
    follow({
      'daily-digest': [
        write('digest-2025-01-01.md', '# Daily digest'),
        say('# Daily digest\n\n- Sales up 5%.\n- Outage at 3pm.'),
      ],
    });
    // The steps run at once: each answers from its own document, whichever arrives first.
    const plan = fake.fallback;
    fake.fallback = (req, f) =>
      skillOf(req) === 'summarize'
        ? say(req.body.messages[1].content.includes('Sales') ? '- Sales up 5%.' : '- Outage at 3pm.')
        : plan(req, f);
    const r = await zhi(['run', 'daily-digest', 'today']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('[1/2] a.md');
    expect(firstUser('daily-digest')).toContain('<result file="today/b.md">\n- Outage at 3pm.');
    expect(toolsOf('daily-digest')).toEqual(['file_write']);
    expect(existsSync(out('digest-2025-01-01.md'))).toBe(true);
  });

  it('contract-review: analyze → compare with the previous version → proofread → a Word risk report', async () => {
    writeFileSync(join(work, 'c2.md'), 'Liability is unlimited.');
    writeFileSync(join(work, 'c1.md'), 'Liability is capped at 1x fees.');
    follow({
      'contract-review': [
        calls({ name: 'skill_analyze', arguments: { file: 'c2.md', focus: 'contract terms' } }),
        calls({ name: 'skill_compare', arguments: { original: 'c1.md', revised: 'c2.md' } }),
        calls({ name: 'skill_proofread', arguments: { file: 'c2.md' } }),
        write('c2-review.docx', {
          content:
            '# Contract review\n\n| # | Clause | Risk | Level |\n|---|---|---|---|\n| 1 | Liability | Unlimited | High |',
        }),
        say('# Contract review'),
      ],
      analyze: [say('Unlimited liability.')],
      compare: [say('Cap removed.')],
      proofread: [say('No errors.')],
    });
    const r = await zhi(['run', 'contract-review', 'c2.md', 'c1.md', '--party', 'the supplier']);
    expect(r.code).toBe(0);
    expect(firstUser('contract-review')).toContain('- party: the supplier');
    expect(firstUser('compare')).toMatch(/<document name="c1.md">[\s\S]*<document name="c2.md">/);
    expect(existsSync(out('c2-review.docx'))).toBe(true);
  });

  it('report-polish: proofread → analyze → polished Markdown → reformat to Word', async () => {
    writeFileSync(join(work, 'q3.md'), '# Q3\n\nRevenue grew becuase of sales.');
    follow({
      'report-polish': [
        calls({ name: 'skill_proofread', arguments: { file: 'q3.md' } }),
        calls({ name: 'skill_analyze', arguments: { file: 'q3.md', focus: 'structure' } }),
        write('q3-polished.md', '# Q3\n\nRevenue grew because of sales.'),
        calls({ name: 'skill_reformat', arguments: { file: 'zhi-output/q3-polished.md', to: 'docx' } }),
        say('1 correction applied. Files: q3-polished.md, q3-polished.docx'),
      ],
      proofread: [say('becuase → because')],
      analyze: [say('Add a summary.')],
      reformat: [
        write('q3-polished.docx', { content: '# Q3\n\nRevenue grew because of sales.' }),
        say('Wrote q3-polished.docx'),
      ],
    });
    const r = await zhi(['run', 'report-polish', 'q3.md', '--output-format', 'json']);
    expect(r.code).toBe(0);
    expect(firstUser('reformat')).toContain('Revenue grew because of sales.');
    const doc = JSON.parse(r.stdout);
    expect(doc.files_written.map((f: string) => f.split('/').pop())).toEqual([
      'q3-polished.md',
      'q3-polished.docx',
    ]);
  });
});
