import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RecordedRequest, Reply } from '../fake-zhipu/server.js';
import { useE2E } from '../helpers/e2e.js';
import { unwrap } from '../helpers/untrusted.js';

const e = useE2E();
const { fake } = e;
let home: string;
let work: string;
beforeEach(() => {
  ({ home, cwd: work } = e);
});

const zhi = (args: string[], o: { stdin?: string; env?: Record<string, string> } = {}) =>
  e.zhi(args, { ...(o.stdin !== undefined ? { stdin: o.stdin } : {}), ...(o.env ? { env: o.env } : {}) });

function userSkill(name: string, yaml: string): string {
  mkdirSync(join(home, 'skills'), { recursive: true });
  const file = join(home, 'skills', `${name}.yaml`);
  writeFileSync(file, yaml);
  return file;
}

const system = (req: RecordedRequest): string => req.body.messages[0].content;
const userText = (req: RecordedRequest): string => req.body.messages[1].content;
const toolNames = (body: { tools?: { function: { name: string } }[] }) =>
  (body.tools ?? []).map((t) => t.function.name).sort();
const lastTool = (body: { messages: { role: string; content: string }[] }) =>
  unwrap([...body.messages].reverse().find((m) => m.role === 'tool')?.content ?? '');

describe('zhi run: one skill', () => {
  it('runs summarize on glm-4-flash with thinking off, only its own tools, writes the file, and prints it as the answer: one model call', async () => {
    writeFileSync(
      join(work, 'notes.txt'),
      'Budget meeting.\nTravel costs are cut by 10%.\nAlice sends the report on Friday.\n',
    );
    const summary =
      '# Summary: notes\n\n## Key points\n- Travel costs are cut by 10%.\n- Alice sends the report on Friday.';
    // The written file is the answer (output.answer: file): no second call to repeat it.
    fake.script({
      kind: 'tools',
      calls: [{ name: 'file_write', arguments: { path: 'notes-summary.md', content: summary } }],
    });
    const r = await zhi(['run', 'summarize', 'notes.txt', '--auto']);
    expect(r.stderr).toContain('Running summarize (glm-4-flash)');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${summary}\n`);
    expect(readFileSync(join(work, 'zhi-output', 'notes-summary.md'), 'utf8')).toBe(`${summary}\n`);

    const bodies = fake.chatBodies();
    expect(bodies).toHaveLength(1);
    for (const b of bodies) {
      expect(b.model).toBe('glm-4-flash');
      expect(b.thinking).toEqual({ type: 'disabled' });
      expect(toolNames(b)).toEqual(['file_write', 'ocr']);
    }
    const [first] = fake.requests.filter((q) => q.path.endsWith('/chat/completions'));
    expect(system(first!)).toMatch(/^You summarize documents for busy readers/);
    expect(system(first!)).toContain('Answer in the language');
    expect(system(first!)).toContain('the run ends there');
    expect(unwrap(userText(first!))).toContain('<document name="notes.txt">\nBudget meeting.');
    expect(userText(first!)).toContain('- length: medium');
  });

  it('prints one JSON document with --output-format json', async () => {
    writeFileSync(join(work, 'a.md'), '# Title\n\nSome text.');
    fake.script({
      kind: 'text',
      text: 'Short summary.',
      usage: { prompt_tokens: 120, completion_tokens: 8 },
    });
    const r = await zhi(['run', 'summarize', 'a.md', '--output-format', 'json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({
      response: 'Short summary.',
      model: 'glm-4-flash',
      files_written: [],
      turns: 1,
    });
    expect(doc.usage.prompt_tokens).toBe(120);
  });

  it('uses --model instead of the skill model', async () => {
    writeFileSync(join(work, 'a.md'), 'text');
    fake.script({ kind: 'text', text: 'done' });
    const r = await zhi(['run', 'summarize', 'a.md', '--model', 'glm-4-air']);
    expect(r.code).toBe(0);
    expect(fake.chatBodies()[0].model).toBe('glm-4-air');
  });

  it('sets named inputs with --<name> value, and explains unknown or missing inputs with the usage (exit 2)', async () => {
    writeFileSync(join(work, 'report.md'), '# 报告\n\n今天天气很好。');
    fake.script({ kind: 'text', text: '# Report\n\nThe weather is fine today.' });
    const ok = await zhi(['run', 'translate', 'report.md', '--to', 'english']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe('# Report\n\nThe weather is fine today.\n');
    expect(userText(fake.requests[0]!)).toContain('- to: english');

    const typo = await zhi(['run', 'translate', 'report.md', '--too', 'english']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('The skill translate has no input called --too (did you mean --to?)');
    expect(typo.stderr).toContain('Usage: zhi run translate [<file>] [--text <text>] [--to <to>]');

    const missing = await zhi(['run', 'compare', 'report.md']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Missing required input: revised');
    expect(missing.stderr).toContain('zhi run compare <original> <revised>');

    const nothing = await zhi(['run', 'translate', '--to', 'english']);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('needs something to work on');

    const noFile = await zhi(['run', 'summarize', 'nope.txt']);
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toContain('File not found: nope.txt');
    expect(fake.chatBodies()).toHaveLength(1);
  });

  it("a value outside an input's choices is a usage error listing them, before any request (en, zh)", async () => {
    writeFileSync(join(work, 'notes.txt'), 'Meeting notes.');
    const en = await zhi(['run', 'summarize', 'notes.txt', '--length', 'huge']);
    expect(en.code).toBe(2);
    expect(en.stderr).toContain('--length must be one of: short, medium, long (not "huge").');
    expect(en.stderr).toContain('--length <short|medium|long>');
    const zh = await zhi(['run', 'summarize', 'notes.txt', '--length', 'huge'], {
      env: { ZHI_LANGUAGE: 'zh' },
    });
    expect(zh.code).toBe(2);
    expect(zh.stderr).toContain('--length 只能是以下之一：short, medium, long（而不是 “huge”）。');
    expect(fake.requests).toHaveLength(0);
  });

  it('takes piped stdin as the text when no input is given', async () => {
    fake.script({ kind: 'text', text: 'Bonjour' });
    const r = await zhi(['run', 'translate', '--to', 'french'], { stdin: 'Hello' });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Bonjour\n');
    expect(userText(fake.requests[0]!)).toContain('- text: Hello');
  });

  it('streams events as JSON lines with --output-format stream-json', async () => {
    writeFileSync(join(work, 'a.md'), 'text');
    fake.script({ kind: 'text', text: 'done' });
    const r = await zhi(['run', 'summarize', 'a.md', '--output-format', 'stream-json']);
    expect(r.code).toBe(0);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events[0]).toEqual({ type: 'skill_start', skill: 'summarize', model: 'glm-4-flash', depth: 1 });
    expect(events.at(-1)).toMatchObject({ type: 'result', response: 'done', model: 'glm-4-flash' });
  });

  it('speaks Chinese when the interface is Chinese', async () => {
    const r = await zhi(['run', 'fanyi'], { env: { ZHI_LANGUAGE: 'zh' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('没有名为 “fanyi” 的技能');
    const none = await zhi(['run']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Which skill?');
  });

  it('says which skill does not exist, with a suggestion (exit 2)', async () => {
    const r = await zhi(['run', 'sumarize', 'a.txt']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('There is no skill called "sumarize"');
    expect(r.stderr).toContain('`summarize`');
    expect(fake.requests).toHaveLength(0);
  });
});

describe('zhi run: folders', () => {
  it('runs a one-file skill on each supported file of a folder, with [i/n] progress and answers in folder order', async () => {
    mkdirSync(join(work, 'docs'));
    writeFileSync(join(work, 'docs', 'b-10.txt'), 'second');
    writeFileSync(join(work, 'docs', 'b-2.txt'), 'first');
    writeFileSync(join(work, 'docs', 'photo.gif'), 'GIF89a');
    // summarize's file is its answer: each file's summary is written, and shown as its answer.
    fake.fallback = (req) => {
      const name = /<document name="([^"]+)"/.exec(userText(req))?.[1] ?? '';
      return {
        kind: 'tools',
        calls: [
          {
            name: 'file_write',
            arguments: { path: `${basename(name)}-summary.md`, content: `summary of ${name}` },
          },
        ],
      };
    };
    const r = await zhi(['run', 'summarize', 'docs', '--auto']);
    expect(r.code).toBe(0);
    // Files run concurrently: each ends with its own line; the answers keep the folder's order.
    expect(r.stderr).toContain('2 of 2 files to process');
    expect(r.stderr).toMatch(/\[1\/2\] ✓ docs\/b-(2|10)\.txt[\s\S]*\[2\/2\] ✓ docs\/b-(2|10)\.txt/);
    expect(r.stdout).toBe(
      '## docs/b-2.txt\n\nsummary of docs/b-2.txt\n\n## docs/b-10.txt\n\nsummary of docs/b-10.txt\n',
    );
    expect(fake.chatBodies()).toHaveLength(2);
  });

  it('invoice-to-excel: extract-table runs on every invoice (OCR for a scan), then one workbook is written', async () => {
    mkdirSync(join(work, 'invoices'));
    writeFileSync(join(work, 'invoices', 'inv-1.md'), '| Item | Amount |\n|---|---|\n| Paper | 100 |\n');
    writeFileSync(
      join(work, 'invoices', 'inv-2.png'),
      Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64)]),
    );
    writeFileSync(join(work, 'invoices', 'notes.docx.tmp'), 'ignored');
    fake.scriptOcr({ md: '| Item | Amount |\n|---|---|\n| Ink | 50 |\n' });
    const workbook = {
      sheets: [
        {
          name: 'Line items',
          headers: ['File', 'Description', 'Amount'],
          rows: [
            ['inv-1.md', 'Paper', 100],
            ['inv-2.png', 'Ink', 50],
          ],
        },
        {
          name: 'Summary',
          headers: ['File', 'Total'],
          rows: [
            ['inv-1.md', 100],
            ['inv-2.png', 50],
            ['TOTAL', 150],
          ],
        },
      ],
    };
    fake.fallback = (req): Reply => {
      if (system(req).startsWith('You extract tables')) {
        const m = /<document name="([^"]+)">\n([\s\S]*?)\n<\/document>/.exec(userText(req));
        return { kind: 'text', text: `### Items (${m?.[1]})\n\n${m?.[2]}` };
      }
      if (req.body.messages.some((x: { role: string }) => x.role === 'tool'))
        return { kind: 'text', text: '2 invoices, total 150, invoices.xlsx' };
      return {
        kind: 'tools',
        calls: [{ name: 'file_write', arguments: { path: 'invoices.xlsx', content: workbook } }],
      };
    };
    const r = await zhi(['run', 'invoice-to-excel', 'invoices', '--auto']);
    expect(r.stderr).toContain('[1/2] inv-1.md');
    expect(r.stderr).toContain('[2/2] inv-2.png');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('2 invoices, total 150, invoices.xlsx\n');

    const bodies = fake.chatBodies();
    const steps = bodies.filter((b) => b.messages[0].content.startsWith('You extract tables'));
    expect(steps).toHaveLength(2);
    // The two steps run at once: each is found by the file it carries, not by when it arrived.
    const stepFor = (name: string) => steps.find((b) => b.messages[1].content.includes(`"${name}"`));
    const first = stepFor('invoices/inv-1.md');
    const scan = stepFor('invoices/inv-2.png');
    expect(first.messages[1].content).toContain('This run is a step of the skill "invoice-to-excel"');
    expect(first.messages[1].content).toContain('| Paper | 100 |');
    expect(scan.messages[1].content).toContain('| Ink | 50 |'); // the scan, read with OCR up front
    expect(toolNames(first)).toEqual(['file_write', 'ocr']);
    const parent = bodies.find((b) => b.messages[0].content.startsWith('You build one Excel workbook'));
    expect(toolNames(parent)).toEqual(['file_write']);
    expect(parent.messages[1].content).toContain(
      '<result file="invoices/inv-1.md">\n### Items (invoices/inv-1.md)',
    );
    expect(parent.messages[1].content).toContain('<result file="invoices/inv-2.png">');

    const ExcelJS = (await import('exceljs')).default;
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(join(work, 'zhi-output', 'invoices.xlsx'));
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Line items', 'Summary']);
    expect(wb.getWorksheet('Summary')!.getRow(4).values).toEqual([undefined, 'TOTAL', 150]);
  });
});

describe('composite skills', () => {
  const INNER = `name: inner
description: The nested step
model: glm-4.5-flash
system_prompt: |
  You are the INNER skill.
tools: [file_read]
input:
  args:
    - name: text
      type: string
      required: true
`;

  it('a nested skill runs with its own model, prompt and tools; usage and the answer flow back', async () => {
    userSkill('inner', INNER);
    userSkill(
      'outer',
      'name: outer\ndescription: Calls inner\nmodel: glm-4-air\nsystem_prompt: You are OUTER.\ntools: [inner]\n',
    );
    fake.script(
      {
        kind: 'tools',
        calls: [{ name: 'skill_inner', arguments: { text: 'hello', instructions: 'be brief' } }],
        usage: { prompt_tokens: 100, completion_tokens: 10 },
      },
      { kind: 'text', text: 'inner says hi', usage: { prompt_tokens: 50, completion_tokens: 5 } },
      {
        kind: 'text',
        text: 'outer done: inner says hi',
        usage: { prompt_tokens: 200, completion_tokens: 20 },
      },
    );
    const r = await zhi(['run', 'outer', '--output-format', 'json']);
    expect(r.code).toBe(0);
    const [outer1, inner, outer2] = fake.chatBodies();
    expect(outer1.model).toBe('glm-4-air');
    expect(toolNames(outer1)).toEqual(['skill_inner']);
    expect(inner.model).toBe('glm-4.5-flash');
    expect(inner.thinking).toEqual({ type: 'disabled' });
    expect(inner.messages[0].content).toMatch(/^You are the INNER skill\./);
    expect(toolNames(inner)).toEqual(['file_read']);
    expect(inner.messages[1].content).toContain('This run is a step of the skill "outer"');
    expect(inner.messages[1].content).toContain('Instructions: be brief');
    expect(inner.messages[1].content).toContain('- text: hello');
    expect(lastTool(outer2)).toBe('inner says hi');
    const doc = JSON.parse(r.stdout);
    expect(doc.response).toBe('outer done: inner says hi');
    expect(doc.usage.prompt_tokens).toBe(350);
    expect(doc.usage.completion_tokens).toBe(35);
  });

  it('stops a cycle: a skill that would call itself gets a refusal it can read', async () => {
    userSkill('ping', 'name: ping\ndescription: p\nsystem_prompt: You are PING.\ntools: [pong]\n');
    userSkill('pong', 'name: pong\ndescription: p\nsystem_prompt: You are PONG.\ntools: [skill_ping]\n');
    fake.script(
      { kind: 'tools', calls: [{ name: 'skill_pong', arguments: {} }] },
      { kind: 'tools', calls: [{ name: 'skill_ping', arguments: {} }] },
      { kind: 'text', text: 'pong could not call ping' },
      { kind: 'text', text: 'ping finished' },
    );
    const r = await zhi(['run', 'ping']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('ping finished\n');
    const bodies = fake.chatBodies();
    expect(bodies).toHaveLength(4);
    expect(lastTool(bodies[2])).toContain('"ping" is already running in this chain (ping → pong → ping)');
    expect(r.stderr).toContain('pong: skill_ping');
  });

  it("shows a nested skill's permission denial in the person's language, never the model's English note", async () => {
    userSkill('outer', 'name: outer\ndescription: o\nsystem_prompt: You are OUTER.\ntools: [inner]\n');
    userSkill('inner', 'name: inner\ndescription: i\nsystem_prompt: You are INNER.\ntools: [file_write]\n');
    expect((await zhi(['skill', 'trust', 'outer', 'inner'])).code).toBe(0);
    fake.script(
      { kind: 'tools', calls: [{ name: 'skill_inner', arguments: {} }] },
      { kind: 'tools', calls: [{ name: 'file_write', arguments: { path: 'a.md', content: 'x' } }] },
      { kind: 'text', text: 'inner could not write' },
      { kind: 'text', text: 'outer done' },
    );
    const r = await zhi(['run', 'outer'], { env: { ZHI_LANGUAGE: 'zh' } });
    expect(r.code).toBe(0);
    expect(existsSync(join(work, 'zhi-output', 'a.md'))).toBe(false);
    // The model was told in English; the person reads Chinese, under the nested skill's chain.
    expect(lastTool(fake.chatBodies()[2])).toContain('stdin is not a terminal');
    expect(r.stderr).toContain('未运行（写入文件）：它需要你确认');
    expect(r.stderr).not.toContain('there is no terminal to ask');
    expect(r.stderr).toContain('outer › inner');
  });

  it('stops at the depth limit of 3 levels', async () => {
    for (const [name, next] of [
      ['l1', 'l2'],
      ['l2', 'l3'],
      ['l3', 'l4'],
      ['l4', 'l1x'],
    ] as const) {
      userSkill(
        name,
        `name: ${name}\ndescription: level\nsystem_prompt: You are ${name.toUpperCase()}.\ntools: [${next === 'l1x' ? 'file_read' : next}]\n`,
      );
    }
    fake.script(
      { kind: 'tools', calls: [{ name: 'skill_l2', arguments: {} }] },
      { kind: 'tools', calls: [{ name: 'skill_l3', arguments: {} }] },
      { kind: 'tools', calls: [{ name: 'skill_l4', arguments: {} }] },
      { kind: 'text', text: 'l3 did it alone' },
      { kind: 'text', text: 'l2 ok' },
      { kind: 'text', text: 'l1 ok' },
    );
    const r = await zhi(['run', 'l1']);
    expect(r.code).toBe(0);
    const bodies = fake.chatBodies();
    expect(bodies.map((b) => b.messages[0].content.slice(8, 10))).toEqual([
      'L1',
      'L2',
      'L3',
      'L3',
      'L2',
      'L1',
    ]);
    expect(lastTool(bodies[3])).toContain('nested at most 3 levels deep (l1 → l2 → l3 → l4)');
  });

  it('translate-proofread chains the built-in skills and writes the checked translation', async () => {
    writeFileSync(join(work, 'memo.md'), '# 备忘\n\n明天开会。');
    fake.script(
      {
        kind: 'tools',
        calls: [
          {
            name: 'skill_translate',
            arguments: {
              file: 'memo.md',
              to: 'English',
              instructions: 'Do not write a file; return only the translation.',
            },
          },
        ],
      },
      { kind: 'text', text: '# Memo\n\nMeeting tomorow.' },
      {
        kind: 'tools',
        calls: [
          {
            name: 'skill_proofread',
            arguments: { text: '# Memo\n\nMeeting tomorow.', instructions: 'Do not write a file.' },
          },
        ],
      },
      {
        kind: 'text',
        text: '| # | Where | Original | Correction | Reason |\n|---|---|---|---|---|\n| 1 | line 3 | tomorow | tomorrow | typo |',
      },
      {
        kind: 'tools',
        calls: [
          { name: 'file_write', arguments: { path: 'memo.en.md', content: '# Memo\n\nMeeting tomorrow.' } },
        ],
      },
      { kind: 'text', text: '# Memo\n\nMeeting tomorrow.\n\n---\n- tomorow → tomorrow' },
    );
    const r = await zhi([
      'run',
      'translate-proofread',
      'memo.md',
      '--to',
      'English',
      '--auto',
      '--output-format',
      'json',
    ]);
    expect(r.code).toBe(0);
    const bodies = fake.chatBodies();
    expect(toolNames(bodies[0])).toEqual(['file_write', 'skill_proofread', 'skill_translate']);
    expect(bodies[1].messages[0].content).toMatch(/^You are a professional translator/);
    expect(bodies[1].messages[1].content).toContain('<document name="memo.md">');
    expect(bodies[3].messages[0].content).toMatch(/^You are a meticulous proofreader/);
    expect(readFileSync(join(work, 'zhi-output', 'memo.en.md'), 'utf8')).toBe(
      '# Memo\n\nMeeting tomorrow.\n',
    );
    const doc = JSON.parse(r.stdout);
    expect(doc.files_written).toEqual([join(work, 'zhi-output', 'memo.en.md')]);
  });
});

describe('user skills', () => {
  it('a user skill overrides the built-in of the same name', async () => {
    userSkill(
      'summarize',
      'name: summarize\ndescription: My own summary\nmodel: glm-4-air\nsystem_prompt: You are MY summarizer.\ntools: []\ninput:\n  args:\n    - name: file\n      type: file\n      required: true\n',
    );
    writeFileSync(join(work, 'a.txt'), 'x');
    fake.script({ kind: 'text', text: 'mine' });
    const r = await zhi(['run', 'summarize', 'a.txt']);
    expect(r.code).toBe(0);
    const [body] = fake.chatBodies();
    expect(body.model).toBe('glm-4-air');
    expect(body.messages[0].content).toMatch(/^You are MY summarizer\./);
    expect(body.tools).toBeUndefined();
    const list = await zhi(['skill', 'list']);
    expect(list.stdout).toMatch(/summarize\s+My own summary\s+glm-4-air\s+user \(replaces built-in\)/);
  });

  it('a broken skill file is skipped with a warning naming the file and line; the others still work', async () => {
    const file = userSkill(
      'broken',
      'name: broken\ndescription: oops\nsystem_prompt: "unclosed\ntools: []\n',
    );
    userSkill('noprompt', 'name: noprompt\ndescription: d\ntools: []\ncolour: blue\n');
    userSkill(
      'extra',
      'name: extra\ndescription: has an extra field\nsystem_prompt: p\ntools: []\ncolour: blue\n',
    );
    const list = await zhi(['skill', 'list']);
    expect(list.code).toBe(0);
    expect(list.stderr).toContain(
      `Skipped a broken skill file: ${file}, line 3: this is not valid YAML: Missing closing "quote`,
    );
    expect(list.stderr).toContain(
      `${join(home, 'skills', 'noprompt.yaml')}, system_prompt: this required field is missing`,
    );
    expect(list.stderr).toContain(
      `In the skill file ${join(home, 'skills', 'extra.yaml')}, line 5, colour: unknown field "colour" (ignored)`,
    );
    expect(list.stdout).toMatch(/^extra\s+has an extra field/m);
    expect(list.stdout).toContain('summarize');
    expect(list.stdout).not.toMatch(/^broken/m);
    writeFileSync(join(work, 'a.txt'), 'x');
    fake.script({ kind: 'text', text: 'still fine' });
    const run = await zhi(['run', 'summarize', 'a.txt']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('still fine\n');
    expect(run.stderr).toContain('Skipped a broken skill file');
  });

  it('create → list → run → delete', async () => {
    const create = {
      name: 'shout',
      description: 'Say the document in capitals',
      system_prompt: 'You repeat the document in CAPITAL letters. Final answer: the capitalised text only.',
      tools: ['file_read'],
      inputs: [{ name: 'file', type: 'file', required: true }],
    };
    fake.script(
      { kind: 'tools', calls: [{ name: 'skill_create', arguments: create }] },
      { kind: 'text', text: 'Saved. Run it with: zhi run shout <file>' },
    );
    const made = await zhi(['-c', 'make me a skill that shouts', '--auto']);
    expect(made.code).toBe(0);
    const file = join(home, 'skills', 'shout.yaml');
    expect(readFileSync(file, 'utf8')).toContain(
      'system_prompt: |\n  You repeat the document in CAPITAL letters.',
    );
    expect(lastTool(fake.chatBodies()[1])).toContain('Saved the skill "shout"');

    const list = await zhi(['skill', 'list']);
    expect(list.stdout).toMatch(/shout\s+Say the document in capitals\s+glm-4-flash\s+user/);

    writeFileSync(join(work, 'hi.txt'), 'hello');
    fake.reset();
    fake.script({ kind: 'text', text: 'HELLO' });
    const run = await zhi(['run', 'shout', 'hi.txt']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('HELLO\n');
    expect(fake.chatBodies()[0].messages[0].content).toMatch(/^You repeat the document in CAPITAL letters/);

    const noYes = await zhi(['skill', 'delete', 'shout']);
    expect(noYes.code).toBe(2);
    expect(existsSync(file)).toBe(true);
    const del = await zhi(['skill', 'delete', 'shout', '--yes']);
    expect(del.code).toBe(0);
    expect(existsSync(file)).toBe(false);
    expect(existsSync(join(home, 'skills'))).toBe(true);
    expect((await zhi(['skill', 'list'])).stdout).not.toContain('shout');
    expect((await zhi(['run', 'shout', 'hi.txt'])).code).toBe(2);
  });

  it('skill_create refuses an unknown tool before anything is saved', async () => {
    fake.script(
      {
        kind: 'tools',
        calls: [
          {
            name: 'skill_create',
            arguments: {
              name: 'bad',
              description: 'd',
              system_prompt: 'Do things step by step, carefully.',
              tools: ['telepathy'],
            },
          },
        ],
      },
      { kind: 'text', text: 'sorry' },
    );
    const r = await zhi(['-c', 'make a skill', '--auto']);
    expect(r.code).toBe(0);
    expect(lastTool(fake.chatBodies()[1])).toContain('"telepathy" is neither a tool');
    expect(existsSync(join(home, 'skills', 'bad.yaml'))).toBe(false);
  });

  it('skill_create never replaces an existing skill without a person saying yes', async () => {
    const file = userSkill('mine', 'name: mine\ndescription: original\nsystem_prompt: p\ntools: []\n');
    const args = (name: string) => ({
      name,
      description: 'new',
      system_prompt: 'A new prompt, step by step.',
      tools: [],
    });
    fake.script(
      {
        kind: 'tools',
        calls: [
          { name: 'skill_create', arguments: args('mine') },
          { name: 'skill_create', arguments: args('summarize') },
        ],
      },
      { kind: 'text', text: 'not saved' },
    );
    const r = await zhi(['-c', 'replace my skill', '--auto']);
    expect(r.code).toBe(0);
    const results = fake
      .chatBodies()[1]
      .messages.filter((m: { role: string }) => m.role === 'tool')
      .map((m: { content: string }) => m.content);
    expect(results[0]).toContain(
      'A skill named "mine" already exists and the user did not agree to replace it (no one can be asked here)',
    );
    expect(results[1]).toContain('A built-in skill named "summarize" already exists');
    expect(readFileSync(file, 'utf8')).toContain('description: original');
    expect(existsSync(join(home, 'skills', 'summarize.yaml'))).toBe(false);
  });

  it('a user skill that writes files must be trusted first; without a terminal it is refused with the way out', async () => {
    userSkill(
      'writer',
      'name: writer\ndescription: Writes\nsystem_prompt: You write a file.\ntools: [file_write]\n',
    );
    const refused = await zhi(['run', 'writer']);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('your skill writer has not been trusted yet');
    expect(refused.stderr).toContain('zhi skill trust writer');
    expect(fake.requests).toHaveLength(0);

    const trust = await zhi(['skill', 'trust', 'writer']);
    expect(trust.code).toBe(0);
    fake.script({ kind: 'text', text: 'wrote nothing' });
    const ok = await zhi(['run', 'writer']);
    expect(ok.code).toBe(0);

    // Any change to the file asks again.
    userSkill(
      'writer',
      'name: writer\ndescription: Writes more\nsystem_prompt: You write a file.\ntools: [file_write]\n',
    );
    expect((await zhi(['run', 'writer'])).code).toBe(3);
  });

  it('shows a skill, and refuses to delete a built-in', async () => {
    const show = await zhi(['skill', 'show', 'translate']);
    expect(show.code).toBe(0);
    expect(show.stdout).toMatch(/^name: translate\n/);
    expect(show.stderr).toContain('(built-in)');
    const del = await zhi(['skill', 'delete', 'translate', '--yes']);
    expect(del.code).toBe(2);
    expect(del.stderr).toContain('translate is a built-in skill and cannot be deleted');
  });
});
