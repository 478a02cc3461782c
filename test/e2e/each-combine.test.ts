/**
 * A composite skill's combining step stays bounded: when the per-file results (`each:`) are more
 * than one message takes, they are combined in rounds (groups no larger than a part, file names
 * kept), every request stays within the message budget, and each round's results are kept on
 * disk, so a run killed before its last call pays for no combining call again. When they fit,
 * nothing changes: one call per file and one for the skill.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RecordedRequest, Reply } from '../fake-zhipu/server.js';
import { useFakeZhipu } from '../helpers/fake.js';
import { cleanup, pollUntil, runZhi, tempDir, testEnv, ZHI_BIN } from '../helpers/zhi.js';

/** MESSAGE_BUDGET_BYTES (src/skills/documents.ts): no request may be larger. */
const BUDGET = 150 * 1024;

let home: string;
let work: string;

const fake = useFakeZhipu();
beforeEach(() => {
  fake.reset();
  fake.latencyMs = 0;
  fake.fallback = responder(4000);
  home = tempDir('zhi-home-');
  work = tempDir('zhi-work-');
  return () => cleanup(home, work);
});

const zhi = (args: string[]) =>
  runZhi({ args: [...args, '--auto'], baseUrl: fake.baseUrl, home, cwd: work, timeoutMs: 90_000 });

const system = (req: RecordedRequest) => String(req.body.messages[0].content);
const userOf = (req: RecordedRequest) => String(req.body.messages[1]?.content ?? '');
const isDigest = (req: RecordedRequest) => system(req).startsWith('You write a daily digest');
const isCombining = (req: RecordedRequest) =>
  isDigest(req) && system(req).includes('This run combines the results');
const chats = () => fake.requests.filter((r) => r.path.endsWith('/chat/completions'));
const summarizeCalls = () => chats().filter((r) => !isDigest(r));
const combineCalls = () => chats().filter(isCombining);
const finalCalls = () => chats().filter((r) => isDigest(r) && !isCombining(r));
/** The files a request carries, by the ids written in their results (never by arrival order). */
const idsIn = (text: string) => [...new Set([...text.matchAll(/\b(d\d{2})\b/g)].map((m) => m[1]!))].sort();

/**
 * summarize answers at length (`size` bytes) about its own file; a combining call answers with
 * the ids of the files it was given; the digest writes its file with the ids it was given.
 */
function responder(size: number): (req: RecordedRequest) => Reply {
  return (req) => {
    if (!isDigest(req)) {
      const id = /MARKER-(\w+)/.exec(userOf(req))?.[1];
      return { kind: 'text', text: `- Point of ${id}: ${'budget line '.repeat(size / 12)}` };
    }
    if (isCombining(req)) return { kind: 'text', text: `Combined: ${idsIn(userOf(req)).join(' ')}` };
    return {
      kind: 'tools',
      calls: [
        {
          name: 'file_write',
          arguments: { path: 'digest.md', content: `# Digest ${idsIn(userOf(req)).join(' ')}` },
        },
      ],
    };
  };
}

function makeFolder(n: number): string[] {
  mkdirSync(join(work, 'today'));
  const ids = Array.from({ length: n }, (_, i) => `d${String(i + 1).padStart(2, '0')}`);
  for (const id of ids) writeFileSync(join(work, 'today', `${id}.md`), `Notes MARKER-${id}\n`);
  return ids;
}

const digest = () => readFileSync(join(work, 'zhi-output', 'digest.md'), 'utf8').trim();
const partsDir = join('zhi-output', '.zhi-parts');

// A run of 60 files and its rounds can take more than the default minute on a loaded machine.
describe('each: results combined in rounds', { timeout: 180_000 }, () => {
  it('results that fit go to the skill as they are: one call per file and one for the skill', async () => {
    const ids = makeFolder(5);
    const r = await zhi(['run', 'daily-digest', 'today']);
    expect(r.code).toBe(0);
    expect(chats()).toHaveLength(6);
    expect(combineCalls()).toHaveLength(0);
    // Every result whole (nothing cut when they fit).
    expect(userOf(finalCalls()[0]!)).not.toContain('[truncated');
    expect(digest()).toBe(`# Digest ${ids.join(' ')}`);
  });

  it('results over the budget are combined in rounds, every request within the budget', async () => {
    const ids = makeFolder(60);
    const r = await zhi(['run', 'daily-digest', 'today', '--jobs', '4']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('combined in rounds');
    for (const req of chats()) expect(req.bytes.length).toBeLessThanOrEqual(BUDGET);
    expect(summarizeCalls()).toHaveLength(60);
    // Round 1 covers every file once, in consecutive groups that keep the files' names.
    const groups = combineCalls().map((c) => idsIn(userOf(c)));
    expect(groups.length).toBeGreaterThan(1);
    expect(groups.flat().sort()).toEqual(ids);
    for (const c of combineCalls()) {
      expect(userOf(c)).toMatch(/<result file="today\/d\d{2}\.md">/);
      expect(system(c)).toContain('keep the file name');
    }
    // The skill's own call got every file, through the groups' results; it wrote its file.
    const final = userOf(finalCalls()[0]!);
    expect(final).toContain('60 files; their results, combined in');
    expect(idsIn(final)).toEqual(ids);
    expect(finalCalls()).toHaveLength(1);
    expect(digest()).toBe(`# Digest ${ids.join(' ')}`);
    // The rounds' results are let go once the run has answered.
    expect(existsSync(join(work, partsDir))).toBe(false);
  });

  it('a single result larger than a message is cut, said with its file, and the requests stay bounded', async () => {
    makeFolder(3);
    const long = responder(200 * 1024);
    fake.fallback = (req) =>
      !isDigest(req) && userOf(req).includes('MARKER-d01') ? long(req) : responder(400)(req);
    const r = await zhi(['run', 'daily-digest', 'today']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/The result for today\/d01\.md \(200 KB\) is longer than one message takes/);
    for (const req of chats()) expect(req.bytes.length).toBeLessThanOrEqual(BUDGET);
    expect(userOf(combineCalls().find((c) => userOf(c).includes('today/d01.md'))!)).toContain('[truncated');
    expect(digest()).toBe('# Digest d01 d02 d03');
  });

  it('a run killed after the rounds makes no combining call again', async () => {
    const ids = makeFolder(60);
    fake.fallback = (req) =>
      // The skill's own call gets no answer: every round's result is on disk by then.
      isDigest(req) && !isCombining(req) ? { kind: 'hang' } : responder(4000)(req);
    const child = spawn(process.execPath, [ZHI_BIN, 'run', 'daily-digest', 'today', '--auto'], {
      cwd: work,
      env: testEnv({ baseUrl: fake.baseUrl, home }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await pollUntil(() => finalCalls().length);
    child.kill('SIGKILL');
    await new Promise((r) => child.on('close', r));
    const combined = combineCalls().length;
    expect(combined).toBeGreaterThan(1);
    expect(readdirSync(join(work, partsDir))).toHaveLength(1);

    fake.reset();
    fake.fallback = responder(4000);
    const again = await zhi(['run', 'daily-digest', 'today']);
    expect(again.code).toBe(0);
    // Neither the files nor the rounds are paid for again: only the skill's own call is made.
    expect(summarizeCalls()).toHaveLength(0);
    expect(combineCalls()).toHaveLength(0);
    expect(finalCalls()).toHaveLength(1);
    expect(digest()).toBe(`# Digest ${ids.join(' ')}`);
  });
});

describe('--dry-run of a composite skill', { timeout: 180_000 }, () => {
  it('sends nothing, counts a call per file and the skill own, exactly when rounds cannot be needed', async () => {
    makeFolder(3);
    const r = await zhi(['run', 'daily-digest', 'today', '--dry-run']);
    expect(r.code).toBe(0);
    expect(chats()).toHaveLength(0);
    expect(r.stdout).toContain('Would run summarize on 3 of 3 files of today/ (0 already done)');
    expect(r.stdout).toContain('daily-digest, on the results');
    expect(r.stdout).toMatch(/in about 4 model calls/);
    expect(r.stdout).not.toContain('at least');
    // Nothing is written: no output, no run record.
    expect(existsSync(join(work, 'zhi-output'))).toBe(false);
  });

  it('says "at least" where the results could need combining rounds, and counts files already done out', async () => {
    makeFolder(60);
    const r = await zhi(['run', 'daily-digest', 'today', '--dry-run']);
    expect(chats()).toHaveLength(0);
    expect(r.stdout).toMatch(/in at least 61 model calls/);
    // After a run every step's result is kept: only the skill's own call is left, and the kept
    // results are more than one message takes (rounds again).
    expect((await zhi(['run', 'daily-digest', 'today'])).code).toBe(0);
    fake.reset();
    const again = await zhi(['run', 'daily-digest', 'today', '--dry-run']);
    expect(chats()).toHaveLength(0);
    expect(again.stdout).toContain('(60 already done)');
    expect(again.stdout).toMatch(/in at least 1 model calls/);
  });

  it('says it in Chinese', async () => {
    makeFolder(60);
    const r = await runZhi({
      args: ['run', 'daily-digest', 'today', '--dry-run'],
      baseUrl: fake.baseUrl,
      home,
      cwd: work,
      env: { ZHI_LANGUAGE: 'zh' },
    });
    expect(chats()).toHaveLength(0);
    expect(r.stdout).toContain('将先用 summarize 处理 today/ 中 60 个文件里的 60 个');
    expect(r.stdout).toContain('至少 61 次模型调用');
  });
});

describe('--batch with a composite skill', () => {
  it.each([
    'en',
    'zh',
  ] as const)('is refused before anything is read or sent, saying why (%s)', async (lang) => {
    makeFolder(3);
    const r = await runZhi({
      args: ['run', 'daily-digest', 'today', '--batch', '--auto'],
      baseUrl: fake.baseUrl,
      home,
      cwd: work,
      env: { ZHI_LANGUAGE: lang },
    });
    expect(r.code).toBe(2);
    expect(fake.requests).toHaveLength(0);
    expect(r.stderr).toContain(
      lang === 'zh'
        ? '技能 daily-digest 不能作为批处理任务运行：它先对每个文件运行 summarize'
        : 'The skill daily-digest cannot run as a batch job: it first runs summarize on every file',
    );
    expect(r.stderr).toContain(lang === 'zh' ? '去掉 --batch' : 'without --batch');
    expect(existsSync(join(work, 'zhi-output'))).toBe(false);
  });
});
