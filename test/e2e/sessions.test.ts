import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { runZhi, testEnv, ZHI_BIN } from '../helpers/zhi.js';

const e = useE2E();
const { fake } = e;
let home: string;
let cwd: string;
beforeEach(() => {
  ({ home, cwd } = e);
});

const zhi = (args: string[], extra: { stdin?: string; env?: Record<string, string> } = {}) =>
  e.zhi(args, { ...extra });

const sessionsDir = () => join(home, 'sessions');
const sessionFiles = () => readdirSync(sessionsDir()).filter((f) => f.endsWith('.jsonl'));
const sessionLines = (file = sessionFiles()[0]!) =>
  readFileSync(join(sessionsDir(), file), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
// biome-ignore lint/suspicious/noExplicitAny: wire messages are inspected freely
const roles = (messages: any[]) =>
  messages.map((m) => (m.role === 'tool' ? 'tool' : `${m.role}:${m.content}`));

/** Start zhi without waiting for it, so a test can kill it. */
function start(args: string[]) {
  const child = spawn(process.execPath, [ZHI_BIN, ...args], {
    cwd,
    env: testEnv({ baseUrl: fake.baseUrl, home }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end();
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  const closed = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('close', (_c, signal) => resolve(signal)),
  );
  return { child, closed, stdout: () => stdout };
}

async function until(test: () => boolean, what: string, ms = 10_000): Promise<void> {
  const startAt = Date.now();
  while (!test()) {
    if (Date.now() - startAt > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('sessions survive a killed zhi', () => {
  it('loses nothing but the unfinished answer, and --continue / --resume pick it up', async () => {
    writeFileSync(join(cwd, 'notes.md'), '会议纪要：预算 120 万，下周五交付。');
    fake.script(
      { kind: 'tools', calls: [{ name: 'file_read', arguments: { path: 'notes.md' } }] },
      { kind: 'text', text: '纪要说预算是 120 万。' },
    );
    const first = await zhi(['-c', '读一下 notes.md，预算是多少？']);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('纪要说预算是 120 万。\n');

    // The second run is killed while the answer streams in.
    fake.script({ kind: 'text', text: '交付日期是下周五，'.repeat(200), delayMs: 30, chunk: 4 });
    const killed = start(['--continue', '-c', '交付日期呢？']);
    await until(() => fake.chatBodies().length === 3, 'the request of the second run');
    await new Promise((r) => setTimeout(r, 300)); // some of the answer has streamed
    killed.child.kill('SIGKILL');
    expect(await killed.closed).toBe('SIGKILL');
    expect(fake.pending()).toBe(0);

    fake.script({ kind: 'text', text: '下周五。' });
    const resumed = await zhi(['--continue', '-c', '请再说一遍交付日期']);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toBe('下周五。\n');
    expect(resumed.stderr).toContain('Continuing session');
    expect(resumed.stderr).toContain('The last answer was not finished');
    const sent = fake.chatBodies()[3].messages;
    expect(roles(sent.slice(1))).toEqual([
      'user:读一下 notes.md，预算是多少？',
      'assistant:',
      'tool',
      'assistant:纪要说预算是 120 万。',
      'user:交付日期呢？',
      'user:请再说一遍交付日期',
    ]);
    expect(sent[2].tool_calls[0].function.name).toBe('file_read');
    expect(sent[3].content).toContain('会议纪要：预算 120 万');
    // The system prompt is today's, not a copy from the file.
    expect(sent[0].role).toBe('system');

    // One conversation, one file; --resume <id> continues the same one.
    expect(sessionFiles()).toHaveLength(1);
    const id = sessionLines()[0].id as string;
    fake.script({ kind: 'text', text: '好的。' });
    const byId = await zhi(['--resume', id.slice(-4), '-c', '谢谢']);
    expect(byId.code).toBe(0);
    expect(roles(fake.chatBodies()[4].messages.slice(-3))).toEqual([
      'user:请再说一遍交付日期',
      'assistant:下周五。',
      'user:谢谢',
    ]);
  });

  it('resumes after a kill during a tool call with a placeholder result for it', async () => {
    writeFileSync(join(cwd, 'a.md'), 'A');
    // zhi is killed after the model asked for a tool but before the result was saved: simulate
    // with a hand-cut session file (the tool ran in the killed process).
    fake.script(
      { kind: 'tools', calls: [{ name: 'file_read', arguments: { path: 'a.md' }, id: 'call_keep' }] },
      { kind: 'text', text: 'A.' },
    );
    expect((await zhi(['-c', 'read a.md'])).code).toBe(0);
    const file = join(sessionsDir(), sessionFiles()[0]!);
    const lines = readFileSync(file, 'utf8').split('\n');
    const toolLine = lines.findIndex((l) => l.startsWith('{"type":"message","role":"tool"'));
    writeFileSync(file, `${lines.slice(0, toolLine).join('\n')}\n{"type":"message","role":"tool","t":"2026`);
    fake.script({ kind: 'text', text: 'again' });
    const r = await zhi(['--continue', '-c', 'go on']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('half-written');
    const sent = fake.chatBodies()[2].messages;
    expect(sent.at(-2)).toMatchObject({
      role: 'tool',
      tool_call_id: 'call_keep',
      content: expect.stringContaining('Interrupted'),
    });
  });

  it('says so and starts fresh when there is nothing to continue; an unknown id is a usage error', async () => {
    fake.script({ kind: 'text', text: 'hi' });
    const r = await zhi(['--continue', '-c', 'hello']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('no earlier conversation in this folder');
    const bad = await zhi(['--resume', 'nope', '-c', 'hello']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('No saved session matches "nope"');
    expect(bad.stderr).toContain('zhi sessions');
    const noId = await zhi(['--resume', '-c', 'hello']);
    expect(noId.code).toBe(2);
    expect(noId.stderr).toContain('--resume needs a session id');
  });
});

describe('long conversations', () => {
  it('compacts on the cheap model when the server reports a nearly full window, then continues', async () => {
    // An earlier turn long enough that its summary is smaller (a compaction never grows a chat).
    const earlier = `先读一下背景：${'这是一段很长的项目背景说明。'.repeat(400)}`;
    fake.script({ kind: 'text', text: '好的，我读完了背景。' });
    expect((await zhi(['-c', earlier])).code).toBe(0);
    const usageJson = ['usage', '--since', 'all', '--output-format', 'json'];
    const first = JSON.parse((await zhi(usageJson)).stdout).total.total_tokens as number;
    writeFileSync(join(cwd, 'big.md'), '第一章 '.repeat(50));
    fake.script(
      {
        kind: 'tools',
        calls: [{ name: 'file_read', arguments: { path: 'big.md' } }],
        usage: { prompt_tokens: 180_000, completion_tokens: 40 },
      },
      {
        kind: 'text',
        text: '## Goal\n翻译 big.md\n## Open items\n- 继续翻译',
        usage: { prompt_tokens: 900, completion_tokens: 60 },
      },
      { kind: 'text', text: '翻译完成。', usage: { prompt_tokens: 5000, completion_tokens: 100 } },
    );
    const r = await zhi(['--continue', '-c', '把 big.md 翻译成英文']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('翻译完成。\n');
    expect(r.stderr).toContain('summarised');
    const [, , summary, after] = fake.chatBodies();
    expect(summary.model).toBe('glm-4-flash');
    expect(summary.tools).toBeUndefined();
    expect(summary.thinking).toEqual({ type: 'disabled' });
    expect(JSON.stringify(summary.messages)).toContain('项目背景说明');
    // The request after compaction: the summary in place of the earlier turn, this turn kept whole.
    expect(after.model).toBe('glm-5');
    expect(after.messages[1].role).toBe('user');
    expect(after.messages[1].content).toContain('翻译 big.md');
    expect(JSON.stringify(after.messages)).not.toContain(
      '这是一段很长的项目背景说明。这是一段很长的项目背景说明。',
    );
    const request = after.messages.findIndex(
      (m: { content?: unknown }) => m.content === '把 big.md 翻译成英文',
    );
    expect(request).toBeGreaterThan(1);
    expect(after.messages[request + 1].tool_calls[0].function.name).toBe('file_read');
    expect(after.messages[request + 2]).toMatchObject({
      role: 'tool',
      tool_call_id: after.messages[request + 1].tool_calls[0].id,
    });
    // The full history stays in the session file.
    const lines = sessionLines();
    expect(lines.some((l) => l.type === 'compaction' && l.reason === 'auto')).toBe(true);
    expect(lines.filter((l) => l.type === 'message').map((l) => l.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    const md = await zhi(['sessions', 'export', lines[0].id]);
    expect(md.stdout).toContain('把 big.md 翻译成英文');
    expect(md.stdout).toContain('summarised');
    // The summary call is counted in the totals of the run.
    const json = await zhi(usageJson);
    expect(JSON.parse(json.stdout).total.total_tokens).toBe(first + 180_040 + 960 + 5100);
  });

  it('a 1261 "prompt exceeds max length" compacts once and retries, not a crash', async () => {
    const long = (n: number) => `${n}: ${'这是一段很长的合同条款。'.repeat(750)}`;
    fake.script({ kind: 'text', text: 'ok 1' }, { kind: 'text', text: 'ok 2' });
    expect((await zhi(['-c', long(1)])).code).toBe(0);
    expect((await zhi(['--continue', '-c', long(2)])).code).toBe(0);
    const before = JSON.stringify(fake.chatBodies()[1].messages).length;
    // Now the server refuses anything longer than what it accepted last time.
    fake.maxPromptChars = before + 20;
    fake.script({ kind: 'text', text: '## Goal\n审查合同' }, { kind: 'text', text: '第三个回答' });
    const r = await zhi(['--continue', '-c', '第三个问题']);
    expect(r.stderr).not.toContain('[ERROR]');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('第三个回答\n');
    expect(r.stderr).toContain('too long for the context window');
    const bodies = fake.chatBodies();
    expect(bodies).toHaveLength(5); // refused, summary, retried
    const retried = bodies[4].messages;
    expect(JSON.stringify(retried).length).toBeLessThanOrEqual(fake.maxPromptChars);
    expect(retried.at(-1)).toEqual({ role: 'user', content: '第三个问题' });
    expect(retried[1].content).toContain('审查合同');
  });

  it('a model_context_window_exceeded finish is retried after compaction too', async () => {
    fake.script({ kind: 'text', text: 'a1' }, { kind: 'text', text: 'a2' });
    expect((await zhi(['-c', `q1 ${'一个很长的问题。'.repeat(300)}`])).code).toBe(0);
    expect((await zhi(['--continue', '-c', 'q2'])).code).toBe(0);
    fake.script(
      { kind: 'text', text: '', finish: 'model_context_window_exceeded' },
      { kind: 'text', text: 'S' },
      { kind: 'text', text: 'a3' },
    );
    const r = await zhi(['--continue', '-c', 'q3']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('a3\n');
  });
});

describe('large tool results', () => {
  it('are saved whole in the session folder; the model gets where, plus the beginning', async () => {
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(cwd, 'many'));
    for (let i = 0; i < 480; i++)
      writeFileSync(join(cwd, 'many', `${String(i).padStart(3, '0')}-${'很长的文件名'.repeat(12)}.txt`), '');
    fake.script(
      { kind: 'tools', calls: [{ name: 'file_list', arguments: { path: 'many' } }] },
      { kind: 'text', text: 'ok' },
    );
    const r = await zhi(['-c', 'list many']);
    expect(r.code).toBe(0);
    const result = fake.chatBodies()[1].messages.at(-1).content as string;
    const path = /saved to (\S+) /.exec(result)?.[1];
    expect(path).toBeDefined();
    expect(path!.startsWith(sessionsDir())).toBe(true);
    const whole = readFileSync(path!, 'utf8');
    expect(whole).toContain('479-');
    expect(Buffer.byteLength(whole)).toBeGreaterThan(50 * 1024);
    expect(Buffer.byteLength(result)).toBeLessThan(50 * 1024);
    expect(result).toContain('000-');
  });
});

describe('usage and cost', () => {
  it('zhi usage totals equal the sum of what the server reported', async () => {
    const calls = [
      { prompt_tokens: 1234, completion_tokens: 56, cached_tokens: 200, reasoning_tokens: 20 },
      { prompt_tokens: 4321, completion_tokens: 654, cached_tokens: 0, reasoning_tokens: 100 },
      { prompt_tokens: 999, completion_tokens: 1, cached_tokens: 999, reasoning_tokens: 0 },
    ];
    fake.script(
      { kind: 'tools', calls: [{ name: 'file_list', arguments: {} }], usage: calls[0] },
      { kind: 'text', text: 'one', usage: calls[1] },
      { kind: 'text', text: 'two', usage: calls[2] },
    );
    const a = await zhi(['-c', 'first', '--output-format', 'json']);
    const b = await zhi(['-c', 'second', '--model', 'glm-4.7']);
    expect(a.code).toBe(0);
    expect(b.code).toBe(0);
    const sum = (k: keyof (typeof calls)[0]) => calls.reduce((n, c) => n + c[k], 0);
    const json = JSON.parse((await zhi(['usage', '--output-format', 'json'])).stdout);
    expect(json.calls).toBe(3);
    expect(json.total).toMatchObject({
      prompt_tokens: sum('prompt_tokens'),
      completion_tokens: sum('completion_tokens'),
      cached_tokens: sum('cached_tokens'),
      reasoning_tokens: sum('reasoning_tokens'),
      total_tokens: sum('prompt_tokens') + sum('completion_tokens'),
    });
    // The one-shot's JSON carries the same numbers as the ledger for its run.
    const run = JSON.parse(a.stdout);
    const glm5 = json.rows.find((r: { key: string }) => r.key === 'glm-5');
    expect(run.usage.total_tokens).toBe(glm5.total_tokens);
    expect(run.cost.amount).toBeCloseTo(glm5.cost.CNY, 6);
    // glm-5 on BigModel: ¥4 in, ¥0.8 cached, ¥18 out per million.
    const expected = ((1234 - 200) * 4 + 200 * 0.8 + 56 * 18 + 4321 * 4 + 654 * 18) / 1e6;
    expect(glm5.cost.CNY).toBeCloseTo(expected, 8);

    const table = await zhi(['usage', '--by', 'model']);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('glm-4.7');
    expect(table.stdout).toMatch(/Total\s+3\s+6,554\s+1,199\s+711\s+7,265/);
  });

  it('zhi usage --by skill shows chat and compaction with what the same tokens cost on GLM-5', async () => {
    fake.script(
      {
        kind: 'tools',
        calls: [{ name: 'file_list', arguments: {} }],
        usage: { prompt_tokens: 190_000, completion_tokens: 10 },
      },
      { kind: 'text', text: 'S', usage: { prompt_tokens: 100_000, completion_tokens: 1000 } },
      { kind: 'text', text: 'done' },
    );
    expect((await zhi(['-c', 'go'])).code).toBe(0);
    const r = await zhi(['usage', '--by', 'skill']);
    expect(r.stdout).toMatch(/\(chat\)/);
    // On GLM-5 a 100K prompt is in the ≥32K tier: 100K × ¥6 + 1K × ¥22 per million.
    expect(r.stdout).toMatch(/\(compact\)\s+1\s+100,000\s+0\s+1,000\s+101,000\s+¥0\.00\s+¥0\.62/);
    expect(r.stdout).toContain('ON GLM-5');
  });

  it('zhi usage --by day compares the same calls: a day of chat and a skill, in en and zh', async () => {
    writeFileSync(join(cwd, 'notes.md'), 'Budget: 1.2M.');
    fake.script(
      { kind: 'text', text: 'hi', usage: { prompt_tokens: 100_000, completion_tokens: 1000 } },
      { kind: 'text', text: 'Budget 1.2M.', usage: { prompt_tokens: 200_000, completion_tokens: 10_000 } },
    );
    expect((await zhi(['-c', 'hello'])).code).toBe(0);
    expect((await zhi(['run', 'summarize', 'notes.md'])).code).toBe(0);
    const r = await zhi(['usage', '--by', 'day']);
    // Chat on GLM-5 (≥32K tier: 100K × ¥6 + 1K × ¥22 = ¥0.62) counts as it is; the free skill's
    // tokens on GLM-5 cost ¥1.42: the day and the total compare ¥0.62 with ¥2.04, not with ¥1.42.
    expect(r.stdout).toMatch(/\d{4}-\d\d-\d\d\s+2\s+300,000\s+0\s+11,000\s+311,000\s+¥0\.62\s+¥2\.04/);
    expect(r.stdout).toMatch(/Total\s+2\s+300,000\s+0\s+11,000\s+311,000\s+¥0\.62\s+¥2\.04/);
    const zh = await zhi(['usage', '--by', 'day'], { env: { ZHI_LANGUAGE: 'zh' } });
    expect(zh.stdout).toContain('若用 GLM-5：同样的调用在 GLM-5 上需要的费用');
  });

  it('a skill run is saved as a run session and ledgered as a skill, next to its GLM-5 price', async () => {
    writeFileSync(join(cwd, 'notes.md'), '会议纪要：预算 120 万。');
    fake.script({
      kind: 'text',
      text: '预算 120 万。',
      usage: { prompt_tokens: 200_000, completion_tokens: 10_000 },
    });
    const r = await zhi(['run', 'summarize', 'notes.md']);
    expect(r.code).toBe(0);
    expect(fake.chatBodies()[0].model).toBe('glm-4-flash');
    // Listed apart from conversations (issue 44 point 16): zhi sessions says where; --runs lists it.
    const chats = await zhi(['sessions']);
    expect(chats.stdout).toBe('');
    expect(chats.stderr).toContain(
      'Skill runs (zhi run, zhi batch results) are listed apart: zhi sessions --runs (1).',
    );
    const [json] = JSON.parse((await zhi(['sessions', '--runs', '--output-format', 'json'])).stdout);
    expect(json).toMatchObject({ kind: 'run', skill: 'summarize', turns: 1, tokens: 210_000 });
    expect(json.title).toContain('notes.md');
    const usage = await zhi(['usage', '--by', 'skill']);
    // glm-4-flash is free; on GLM-5 a 200K prompt is in the ≥32K tier (¥6 in, ¥22 out): 1.2 + 0.22.
    expect(usage.stdout).toMatch(/summarize\s+1\s+200,000\s+0\s+10,000\s+210,000\s+¥0\.00\s+¥1\.42/);
    expect(usage.stdout).toContain('the same tokens on GLM-5 would have cost ¥1.42');
    expect(usage.stdout).toContain('ON GLM-5: what the same calls would have cost on GLM-5');
    // A skill run is not a conversation to --continue.
    fake.script({ kind: 'text', text: 'hi' });
    const cont = await zhi(['--continue', '-c', 'hello']);
    expect(cont.stderr).toContain('no earlier conversation');
  });

  it('rejects a bad --since or --by with a usage error', async () => {
    expect((await zhi(['usage', '--since', 'last week'])).code).toBe(2);
    const r = await zhi(['usage', '--by', 'modle']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--by model');
  });

  it('stops a run that would pass max_cost_per_run, with what/why/try and exit 1', async () => {
    writeFileSync(join(home, 'config.yaml'), 'max_cost_per_run: 0.5\n');
    fake.script(
      // ¥0.60 of glm-5 input: over the limit before the second call (and under the compaction threshold).
      {
        kind: 'tools',
        calls: [{ name: 'file_list', arguments: {} }],
        usage: { prompt_tokens: 150_000, completion_tokens: 0 },
      },
      { kind: 'text', text: 'never sent' },
    );
    const r = await zhi(['-c', 'go', '--output-format', 'json']);
    expect(r.code).toBe(1);
    expect(fake.chatBodies()).toHaveLength(1);
    expect(JSON.parse(r.stdout).error.code).toBe('budget');
    expect(r.stderr).toContain('max_cost_per_run');
    expect(r.stderr).toContain('zhi config set max_cost_per_run');
  });
});

describe('zhi sessions', () => {
  it('lists, filters in Chinese, exports and deletes', async () => {
    fake.script({ kind: 'text', text: '好的，合同已审查。' }, { kind: 'text', text: 'Done.' });
    await zhi(['-c', '请审查这份采购合同的付款条款']);
    await zhi(['-c', 'Summarise the meeting']);
    const list = await zhi(['sessions']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('请审查这份采购合同的付款条款');
    expect(list.stdout).toContain('Summarise the meeting');
    const filtered = await zhi(['sessions', '付款']);
    expect(filtered.stdout).toContain('采购合同');
    expect(filtered.stdout).not.toContain('meeting');
    const byAnswer = await zhi(['sessions', '已审查']);
    expect(byAnswer.stdout).toContain('采购合同');
    const none = await zhi(['sessions', '不存在的词']);
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('');

    const json = JSON.parse((await zhi(['sessions', '--output-format', 'json'])).stdout);
    expect(json).toHaveLength(2);
    const id = json.find((s: { title: string }) => s.title.includes('合同')).id;
    const md = await zhi(['sessions', 'export', id]);
    expect(md.stdout).toMatch(/^# 请审查这份采购合同的付款条款\n/);
    expect(md.stdout).toContain('好的，合同已审查。');

    const refused = await zhi(['sessions', 'delete', id]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect(sessionFiles()).toHaveLength(2);
    const deleted = await zhi(['sessions', 'delete', id, '--yes']);
    expect(deleted.code).toBe(0);
    expect(sessionFiles()).toHaveLength(1);
    expect((await zhi(['sessions', 'export', id])).code).toBe(2);
  });
});

describe('a session file that cannot be written', () => {
  it('warns once and the conversation goes on (exit 0, answer on stdout)', async () => {
    writeFileSync(join(home, 'sessions'), 'not a folder'); // every session write fails
    fake.script({ kind: 'text', text: 'still answering' });
    const r = await runZhi({ args: ['-c', 'hello'], baseUrl: fake.baseUrl, home, cwd });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('still answering\n');
    expect(r.stderr.match(/This conversation cannot be saved/g)).toHaveLength(1);
    expect(r.stderr).toContain('it will not be resumable');
  });
});
