/**
 * Context economy (issue 31): a big spreadsheet read in a conversation enters it as a bounded
 * page under a digest; page 2 is reached with the offset the marker gives; the next message does
 * not send the pages again (the model is told how to read them again).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { estimateTextTokens } from '../../src/agent/tokens.js';
import { useE2E } from '../helpers/e2e.js';
import { unwrap } from '../helpers/untrusted.js';
import { buildXlsx, type RawCell } from '../helpers/xlsx-build.js';

const e = useE2E();
const { fake } = e;

function* orders(n: number): Generator<RawCell[]> {
  yield ['编号', '客户', '地区', '产品', '数量', '金额', '备注'];
  for (let i = 1; i <= n; i++)
    yield [i, `客户 ${i}`, ['华东', '华南'][i % 2]!, `产品 ${i % 37}`, i % 50, i * 12.5, `备注 ${i}`];
}

const toolContents = (body: { messages: { role: string; content: string }[] }): string[] =>
  body.messages.filter((m) => m.role === 'tool').map((m) => unwrap(m.content));

describe('a big spreadsheet in a conversation', () => {
  it('enters as one bounded page with a digest, page 2 is reachable, and the next message leaves both out', async () => {
    writeFileSync(
      join(e.cwd, 'orders.xlsx'),
      await buildXlsx({ sheets: [{ name: '订单', rows: orders(5000) }] }),
    );
    fake.script(
      { kind: 'tools', calls: [{ id: 'p1', name: 'file_read', arguments: { path: 'orders.xlsx' } }] },
      { kind: 'text', text: 'Page 1 read.' },
    );
    expect((await e.zhi(['-c', '看看 orders.xlsx'])).code).toBe(0);
    const page1 = toolContents(fake.chatBodies()[1])[0]!;
    expect(page1.split('\n')[0]).toMatch(
      /^\[orders\.xlsx: Excel workbook; [\d.]+ KB; sheets: 订单; text [\d.]+ KB( or more)?, \d+( or more)? pages of 24 KB, this is page 1\]$/,
    );
    expect(estimateTextTokens(page1)).toBeLessThanOrEqual(16_000);
    const next = /Call file_read with offset=(\d+) to read on/.exec(page1)?.[1];
    expect(next).toBeDefined();

    fake.script(
      {
        kind: 'tools',
        calls: [{ id: 'p2', name: 'file_read', arguments: { path: 'orders.xlsx', offset: Number(next) } }],
      },
      { kind: 'text', text: 'Page 2 read.' },
    );
    expect((await e.zhi(['--continue', '-c', '下一页'])).code).toBe(0);
    const bodies = fake.chatBodies();
    const [second, third] = [bodies[2], bodies[3]];
    // The second message's first request: page 1 left out, with how to read it again.
    const elided = toolContents(second)[0]!;
    expect(elided).toMatch(
      /^\[Left out to save tokens: this file_read result \([\d.]+ KB\) was shown in an earlier turn\./,
    );
    expect(elided).toContain('Call file_read with {"path":"orders.xlsx"} again if you need it.');
    expect(JSON.stringify(second)).not.toContain('客户 200 ');
    // Page 2 comes after, from the offset, whole.
    const page2 = toolContents(third)[1]!;
    expect(page2).toContain('this is page 2');
    expect(page2).not.toContain('| 1 | 客户 1 |');
    expect(estimateTextTokens(JSON.stringify(third.messages))).toBeLessThanOrEqual(20_000);
  });
});

/** Four pages of a long Chinese text read in one turn: ≈ 8k tokens each, the fourth crosses 32k. */
function fourPages(): void {
  writeFileSync(join(e.cwd, 'long.txt'), '这是一段很长的中文文本。'.repeat(12_000));
  fake.script(
    {
      kind: 'tools',
      calls: [0, 1, 2, 3].map((i) => ({
        id: `r${i}`,
        name: 'file_read',
        arguments: { path: 'long.txt', ...(i ? { offset: i * 24_576 } : {}) },
      })),
    },
    {
      kind: 'tools',
      calls: [{ id: 'r4', name: 'file_read', arguments: { path: 'long.txt', offset: 4 * 24_576 } }],
    },
    { kind: 'text', text: '读完了。' },
  );
}

describe('price steps', () => {
  it('warns once, in the person’s language, before the request that passes glm-5’s 32k-token step', async () => {
    fourPages();
    const r = await e.zhi(['-c', '读 long.txt', '--model', 'glm-5'], { env: { ZHI_LANGUAGE: 'zh' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('读完了。');
    expect(
      r.stderr.match(/已超过 glm-5 的 32k token 计价档：输入价格由每百万 token ¥4\.00 变为 ¥6\.00/g),
    ).toHaveLength(1);
    // Said before that request went out: the first request was small, the second the big one.
    const sizes = fake.chatBodies().map((b) => estimateTextTokens(JSON.stringify(b.messages)));
    expect(sizes[0]).toBeLessThan(32_000);
    expect(sizes[1]).toBeGreaterThan(32_000);
  });

  it('says nothing for a conversation that stays under the step', async () => {
    fake.script({ kind: 'text', text: 'hi' });
    const r = await e.zhi(['-c', 'hello', '--model', 'glm-5']);
    expect(r.stderr).not.toMatch(/price step/);
  });
});
