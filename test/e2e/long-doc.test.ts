import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RecordedRequest, Reply } from '../fake-zhipu/server.js';
import { useE2E } from '../helpers/e2e.js';
import { pollUntil, testEnv, ZHI_BIN } from '../helpers/zhi.js';

const e = useE2E();
const { fake } = e;
let home: string;
let work: string;
beforeEach(() => {
  ({ home, cwd: work } = e);
});

const zhi = (args: string[]) => e.zhi(args, { timeoutMs: 60_000 });
const system = (r: RecordedRequest): string => r.body.messages[0].content;
const user = (r: RecordedRequest): string => r.body.messages[1].content;
const isMap = (r: RecordedRequest) => /This run handles part \d+ of \d+/.test(system(r));
const chats = () => fake.requests.filter((r) => r.path.endsWith('/chat/completions'));
const numbers = (text: string, tag: string) =>
  [...text.matchAll(new RegExp(`${tag}-(\\d+)`, 'g'))].map((m) => Number(m[1]));

describe('documents longer than one message: map, then combine', () => {
  it('summarises a 400-page document from all of its parts', async () => {
    const pages = Array.from(
      { length: 400 },
      (_, i) =>
        `--- page ${i + 1} of 400 ---\nPAGEMARK-${i + 1} ${'The contract clause text goes on here. '.repeat(16)}`,
    );
    writeFileSync(join(work, 'contract.txt'), pages.join('\n'));
    fake.fallback = (req): Reply => {
      if (isMap(req)) {
        const seen = numbers(user(req), 'PAGEMARK');
        return { kind: 'text', text: `PARTSUM-${seen[0]} to ${seen.at(-1)}` };
      }
      if (req.body.messages.at(-1).role === 'user') {
        return {
          kind: 'tools',
          calls: [
            {
              name: 'file_write',
              arguments: { path: 'contract-summary.md', content: '# Summary: contract' },
            },
          ],
        };
      }
      return { kind: 'text', text: '# Summary: contract' };
    };
    const r = await zhi(['run', 'summarize', 'contract.txt', '--auto']);
    expect(r.code).toBe(0);
    const maps = chats().filter(isMap);
    const m = /Long document contract\.txt: (\d+) parts/.exec(r.stderr);
    expect(m).not.toBeNull();
    expect(r.stderr).toContain('processed separately and then combined.');
    expect(maps).toHaveLength(Number(m![1]));
    expect(maps.length).toBeGreaterThanOrEqual(4);
    // No max_cost_per_run: the parts are said, the estimate is not.
    expect(r.stderr).not.toMatch(/estimated cost/i);
    // Every page's marker reached a request, once.
    const all = maps.flatMap((q) => numbers(user(q), 'PAGEMARK')).sort((a, b) => a - b);
    expect(all).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
    // Map calls have no tools; the combining run has the skill's own and gets every part's result in order.
    for (const q of maps) expect(q.body.tools).toBeUndefined();
    const combine = chats().find((q) => !isMap(q))!;
    expect(combine.body.tools.map((t: { function: { name: string } }) => t.function.name)).toContain(
      'file_write',
    );
    const firsts = numbers(user(combine), 'PARTSUM');
    expect(firsts[0]).toBe(1);
    expect(firsts).toEqual([...firsts].sort((a, b) => a - b));
    expect(user(combine)).toContain(`results of its ${maps.length} parts`);
    expect(readFileSync(join(work, 'zhi-output', 'contract-summary.md'), 'utf8')).toContain(
      '# Summary: contract',
    );
  });

  it('combines long part results in rounds (no request larger than a part), keeps them on disk, and resumes without paying again', async () => {
    const pages = Array.from(
      { length: 400 },
      (_, i) =>
        `--- page ${i + 1} of 400 ---\nPAGEMARK-${i + 1} ${'The contract clause text goes on here. '.repeat(16)}`,
    );
    writeFileSync(join(work, 'contract.txt'), pages.join('\n'));
    const isRound = (r: RecordedRequest) =>
      /This run combines the results of parts \d+ to \d+/.test(system(r));
    let failFinal = true;
    fake.fallback = (req): Reply => {
      // Every part's result is 25 KB: together they are far more than one message may carry.
      if (isMap(req)) {
        const seen = numbers(user(req), 'PAGEMARK');
        return { kind: 'text', text: `PARTSUM-${seen[0]} ${'detail '.repeat(3600)}`, chunk: 4000 };
      }
      if (isRound(req)) return { kind: 'text', text: `ROUNDSUM-${numbers(user(req), 'PARTSUM')[0]}` };
      if (failFinal) return { kind: 'error', status: 500, code: '500', message: 'internal error' };
      return {
        kind: 'tools',
        calls: [
          { name: 'file_write', arguments: { path: 'contract-summary.md', content: '# Summary: contract' } },
        ],
      };
    };
    const first = await zhi(['run', 'summarize', 'contract.txt', '--auto']);
    expect(first.code).not.toBe(0);
    const maps = chats().filter(isMap).length;
    const rounds = chats().filter(isRound);
    expect(maps).toBeGreaterThanOrEqual(4);
    expect(rounds.length).toBeGreaterThanOrEqual(2);
    // No request is much larger than a part (60 KB) plus the prompt.
    for (const q of chats()) expect(Buffer.byteLength(q.raw, 'utf8')).toBeLessThan(75 * 1024);
    const kept = join(work, 'zhi-output', '.zhi-parts');
    expect(readdirSync(kept)).toHaveLength(1);

    // The same command again: nothing already done is sent again; the final run goes through.
    fake.requests.length = 0;
    failFinal = false;
    const again = await zhi(['run', 'summarize', 'contract.txt', '--auto']);
    expect(again.code).toBe(0);
    expect(chats().filter(isMap)).toHaveLength(0);
    expect(chats().filter(isRound)).toHaveLength(0);
    expect(chats()).toHaveLength(1);
    const final = chats()[0]!;
    expect(numbers(user(final), 'ROUNDSUM').length).toBe(rounds.length);
    expect(again.stdout).toContain('# Summary: contract');
    // Answered: the kept results are removed, and the output folder holds only the output.
    expect(readdirSync(join(work, 'zhi-output'))).toEqual(['contract-summary.md']);
  });

  it('a long document in a folder run says how far its parts are (piped: a line every few parts)', async () => {
    const pages = Array.from(
      { length: 400 },
      (_, i) =>
        `--- page ${i + 1} ---\nPAGEMARK-${i + 1} ${'The contract clause text goes on here. '.repeat(16)}`,
    );
    mkdirSync(join(work, 'docs'));
    writeFileSync(join(work, 'docs', 'contract.txt'), pages.join('\n'));
    writeFileSync(join(work, 'docs', 'note.txt'), 'A short note.');
    // Each file's summary gets a name of its own (a taken name would leave a file unwritten).
    let n = 0;
    fake.fallback = (req): Reply =>
      req.body.messages.at(-1).role === 'user' && !isMap(req)
        ? { kind: 'tools', calls: [{ name: 'file_write', arguments: { path: `s${++n}.md`, content: 'S' } }] }
        : { kind: 'text', text: 'PARTSUM' };
    const r = await zhi(['run', 'summarize', 'docs', '--auto']);
    expect(r.code).toBe(0);
    const total = chats().filter(isMap).length;
    expect(total).toBeGreaterThanOrEqual(5);
    const said = [...r.stderr.matchAll(/docs\/contract\.txt: part (\d+)\/(\d+)/g)];
    expect(said.length, r.stderr).toBeGreaterThan(0);
    expect(said.length).toBeLessThan(total);
    expect(said.at(-1)?.slice(1)).toEqual([String(total), String(total)]);
  });

  it('--dry-run says a long document is split into parts and estimates the parts and the combining run', async () => {
    const pages = Array.from(
      { length: 400 },
      (_, i) =>
        `--- page ${i + 1} ---\nPAGEMARK-${i + 1} ${'The contract clause text goes on here. '.repeat(16)}`,
    );
    mkdirSync(join(work, 'docs'));
    writeFileSync(join(work, 'docs', 'contract.txt'), pages.join('\n'));
    writeFileSync(join(work, 'docs', 'note.txt'), 'A short note.');
    const dry = await zhi(['run', 'summarize', 'docs', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(chats()).toHaveLength(0);
    const said = /docs\/contract\.txt\s+about ([\d,]+) tokens in · long document: (\d+) parts/.exec(
      dry.stdout,
    );
    expect(said, dry.stdout).not.toBeNull();
    expect(dry.stdout).not.toMatch(/note\.txt[^\n]*long document/);
    const total = /Estimated in all: ([\d,]+) input/.exec(dry.stdout);
    const n = (s: string) => Number(s.replace(/,/g, ''));
    // Every part is sent (the whole document, not twice its first part), then the results combined.
    const docTokens = n(said![1]!);
    expect(n(total![1]!)).toBeGreaterThan(docTokens);
    // Calls: every part, the skill's own run over their results, and one for the short note; at
    // least, as the parts' results could need combining in rounds first.
    const calls = /in at least (\d+) model calls/.exec(dry.stdout);
    expect(Number(calls?.[1])).toBe(Number(said![2]) + 2);

    // The run splits it the same way.
    fake.fallback = (req): Reply =>
      req.body.messages.at(-1).role === 'user' && !isMap(req)
        ? { kind: 'tools', calls: [{ name: 'file_write', arguments: { path: 's.md', content: 'S' } }] }
        : { kind: 'text', text: 'PARTSUM' };
    const run = await zhi(['run', 'summarize', 'docs/contract.txt', '--auto']);
    expect(run.code).toBe(0);
    expect(chats().filter(isMap)).toHaveLength(Number(said![2]));
    const sent = chats()
      .filter(isMap)
      .reduce((sum, q) => sum + user(q).length, 0);
    // The parts' text is the document's: the estimate is of that size (about 4 characters a token, generously).
    expect(docTokens).toBeGreaterThan(sent / 8);
  });

  it('translates a long document part by part and writes every part, in order, into one file', async () => {
    const sections = Array.from(
      { length: 90 },
      (_, i) => `# 第${i + 1}节\n\nSECTION-${i + 1} ${'合同条款的具体内容如下所述。'.repeat(40)}`,
    );
    writeFileSync(join(work, 'long.md'), sections.join('\n\n'));
    fake.fallback = (req): Reply => {
      if (isMap(req)) {
        const ids = numbers(user(req), 'SECTION');
        return { kind: 'text', text: ids.map((n) => `## Section ${n}\n\nEN-${n} translated.`).join('\n\n') };
      }
      if (req.body.messages.at(-1).role === 'user') {
        // The model writes the placeholder it was told to; zhi fills in the whole translation.
        const placeholder = /exactly (\{\{[A-Z_]+\}\})/.exec(user(req))?.[1] ?? 'missing';
        return {
          kind: 'tools',
          calls: [{ name: 'file_write', arguments: { path: 'long.en.md', content: placeholder } }],
        };
      }
      return { kind: 'text', text: 'Saved to zhi-output/long.en.md' };
    };
    const r = await zhi(['run', 'translate', 'long.md', '--to', 'English', '--auto']);
    expect(r.code).toBe(0);
    // A translation's parts are joined in order, not "combined".
    expect(r.stderr).toMatch(
      /Long document long\.md: \d+ parts, processed separately and then joined in order\./,
    );
    const maps = chats().filter(isMap);
    expect(maps.length).toBeGreaterThan(2);
    const file = readFileSync(join(work, 'zhi-output', 'long.en.md'), 'utf8');
    expect(numbers(file, 'EN')).toEqual(Array.from({ length: 90 }, (_, i) => i + 1));
    expect(file).not.toContain('{{');
    // stdout is the whole translation too, as for a short document.
    expect(numbers(r.stdout, 'EN')).toEqual(Array.from({ length: 90 }, (_, i) => i + 1));
    // The combining run never carried the document again.
    const combine = chats().find((q) => !isMap(q))!;
    expect(user(combine)).not.toContain('SECTION-1 ');
  });
});

describe('a translation longer than can be shown', () => {
  it('killed part-way, the same command pays only for the parts not kept; the joined result is written whole and not printed', async () => {
    // About 1.3 MB: its translation (the fake echoes each part) is too long to be the answer shown.
    const sections = Array.from(
      { length: 700 },
      (_, i) => `# 第${i + 1}节\n\nSECTION-${i + 1} ${'合同条款的具体内容如下所述。'.repeat(45)}`,
    );
    writeFileSync(join(work, 'long.md'), sections.join('\n\n'));
    let release = () => {};
    let answered = 0;
    const replies = (req: RecordedRequest): Reply => {
      if (isMap(req)) {
        if (++answered === 3) fake.hold = new Promise((r) => (release = r));
        const en = numbers(user(req), 'SECTION').map(
          (n) => `## Section ${n}\n\nEN-${n} ${'translated '.repeat(180)}`,
        );
        return { kind: 'text', text: en.join('\n\n'), chunk: 4000 };
      }
      const placeholder = /exactly (\{\{[A-Z_]+\}\})/.exec(user(req))?.[1] ?? 'missing';
      return req.body.messages.at(-1).role === 'user'
        ? {
            kind: 'tools',
            calls: [
              { name: 'file_write', arguments: { path: 'long.en.md', content: `# Long\n\n${placeholder}` } },
            ],
          }
        : { kind: 'text', text: 'Saved.' };
    };
    fake.fallback = replies;
    const args = ['run', 'translate', 'long.md', '--to', 'English', '--auto', '--jobs', '1'];
    const child = spawn(process.execPath, [ZHI_BIN, ...args], {
      cwd: work,
      env: testEnv({ baseUrl: fake.baseUrl, home }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Three parts answered and kept, the fourth held in flight: kill it, no chance to clean up.
    await pollUntil(() => chats().filter(isMap).length >= 4);
    child.kill('SIGKILL');
    await new Promise((r) => child.on('close', r));
    release();
    const parts = join(work, 'zhi-output', '.zhi-parts');
    const [store] = readdirSync(parts);
    const kept = readdirSync(join(parts, store!)).filter((f) => f.endsWith('.md')).length;
    expect(kept).toBe(3);

    fake.requests.length = 0;
    fake.hold = undefined;
    answered = -1_000_000;
    const again = await zhi(args);
    expect(again.code, again.stderr).toBe(0);
    const n = Number(/Long document long\.md: (\d+) parts/.exec(again.stderr)?.[1]);
    expect(n).toBeGreaterThan(10);
    // Only the parts not kept were sent again.
    expect(chats().filter(isMap)).toHaveLength(n - 3);
    const file = readFileSync(join(work, 'zhi-output', 'long.en.md'), 'utf8');
    expect(file.startsWith('# Long\n\n## Section 1\n')).toBe(true);
    expect(numbers(file, 'EN')).toEqual(Array.from({ length: 700 }, (_, i) => i + 1));
    expect(file).not.toContain('{{');
    expect(file.length).toBeGreaterThan(1024 * 1024);
    // Too long to print: the answer says where it is; the kept results are gone.
    expect(again.stdout).not.toContain('EN-1 ');
    expect(again.stdout).toMatch(/too long to show here; it was written to zhi-output[\\/]long\.en\.md/);
    expect(readdirSync(join(work, 'zhi-output'))).toEqual(['long.en.md']);
  });
});

describe('a translation longer than can be shown, that the model does not save', () => {
  it.each([
    'en',
    'zh',
  ] as const)('says so, keeps the parts, and the same command saves it without paying for them again (%s)', async (lang) => {
    const sections = Array.from(
      { length: 700 },
      (_, i) => `# 第${i + 1}节\n\nSECTION-${i + 1} ${'合同条款的具体内容如下所述。'.repeat(45)}`,
    );
    writeFileSync(join(work, 'long.md'), sections.join('\n\n'));
    let writes = false;
    fake.fallback = (req: RecordedRequest): Reply => {
      if (isMap(req)) {
        const en = numbers(user(req), 'SECTION').map(
          (n) => `## Section ${n}\n\nEN-${n} ${'translated '.repeat(180)}`,
        );
        return { kind: 'text', text: en.join('\n\n'), chunk: 4000 };
      }
      const placeholder = /exactly (\{\{[A-Z_]+\}\})/.exec(user(req))?.[1] ?? 'missing';
      if (writes && req.body.messages.at(-1).role === 'user')
        return {
          kind: 'tools',
          calls: [{ name: 'file_write', arguments: { path: 'long.en.md', content: placeholder } }],
        };
      return { kind: 'text', text: 'Done.' };
    };
    const args = ['run', 'translate', 'long.md', '--to', 'English', '--auto'];
    const env = { ZHI_LANGUAGE: lang };
    const first = await e.zhi(args, { timeoutMs: 60_000, env });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(lang === 'zh' ? '没有保存' : 'was not saved');
    expect(first.stdout).not.toMatch(/written to|已写入/);
    expect(existsSync(join(work, 'zhi-output', '.zhi-parts'))).toBe(true);
    const paid = chats().filter(isMap).length;
    expect(paid).toBeGreaterThan(10);

    fake.requests.length = 0;
    writes = true;
    const again = await e.zhi(args, { timeoutMs: 60_000, env });
    expect(again.code, again.stderr).toBe(0);
    expect(chats().filter(isMap)).toHaveLength(0);
    const file = readFileSync(join(work, 'zhi-output', 'long.en.md'), 'utf8');
    expect(numbers(file, 'EN')).toEqual(Array.from({ length: 700 }, (_, i) => i + 1));
    expect(readdirSync(join(work, 'zhi-output'))).toEqual(['long.en.md']);
  });
});

/** A contract of `pages` pages, each with its marker, long enough to be split. */
function longContract(pages = 400): void {
  const text = Array.from(
    { length: pages },
    (_, i) =>
      `--- page ${i + 1} ---\nPAGEMARK-${i + 1} ${'The contract clause text goes on here. '.repeat(16)}`,
  );
  writeFileSync(join(work, 'contract.txt'), text.join('\n'));
}

const summaryReplies = (req: RecordedRequest): Reply =>
  isMap(req)
    ? { kind: 'text', text: `PARTSUM-${numbers(user(req), 'PAGEMARK')[0]}` }
    : { kind: 'text', text: '# Summary' };

describe('a long document that would cost more than max_cost_per_run', () => {
  beforeEach(() => {
    writeFileSync(join(home, 'config.yaml'), 'max_cost_per_run: 0.01\n');
    fake.fallback = summaryReplies;
  });
  // glm-4-plus is paid (the default skill model is free, so it never passes a limit).
  const args = ['run', 'summarize', 'contract.txt', '--model', 'glm-4-plus', '--auto'];

  it('without a terminal, stops before sending anything and names the setting and --yes', async () => {
    longContract();
    const r = await zhi(args);
    expect(r.code).toBe(1);
    expect(chats()).toHaveLength(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/Long document contract\.txt: \d+ parts/);
    expect(r.stderr).toMatch(/Estimated cost ¥[\d.]+: more than max_cost_per_run \(¥0\.01\)/);
    expect(r.stderr).toContain('Did not process the long document contract.txt');
    expect(r.stderr).toContain('--yes');
    expect(r.stderr).toContain('zhi config set max_cost_per_run');
  });

  it('with --yes, goes ahead and every part is sent', async () => {
    longContract();
    const r = await zhi([...args, '--yes']);
    expect(r.code).toBe(0);
    const maps = chats().filter(isMap);
    expect(maps.length).toBeGreaterThanOrEqual(4);
    const all = maps.flatMap((q) => numbers(user(q), 'PAGEMARK')).sort((a, b) => a - b);
    expect(all).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
    expect(r.stderr).toMatch(/Estimated cost ¥[\d.]+/);
  });

  it('says it in Chinese', async () => {
    longContract();
    const r = await e.zhi(args, { env: { ZHI_LANGUAGE: 'zh' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/长文档 contract\.txt：分为 \d+ 部分/);
    expect(r.stderr).toContain('未处理长文档 contract.txt');
    expect(r.stderr).toContain('--yes');
  });
});
