import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeZhipu } from '../fake-zhipu/server.js';
import { cleanup, runZhi, tempDir } from '../helpers/zhi.js';

let fake: FakeZhipu;
let home: string;

beforeAll(async () => {
  fake = new FakeZhipu();
  await fake.start();
});
afterAll(() => fake.stop());
beforeEach(() => {
  fake.reset();
  home = tempDir();
  return () => cleanup(home);
});

describe('zhi -c (one-shot chat)', () => {
  it('prints the streamed answer on stdout and nothing else', async () => {
    fake.script({ kind: 'text', text: '你好！我是 zhi，有什么可以帮你？', reasoning: '用户打招呼。' });
    const r = await runZhi({ args: ['-c', '你好'], baseUrl: fake.baseUrl, home });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('你好！我是 zhi，有什么可以帮你？\n');
    expect(r.stderr).not.toContain('用户打招呼'); // reasoning never on stdout, and not on a non-terminal stderr
    const [body] = fake.chatBodies();
    expect(body.model).toBe('glm-5');
    expect(body.stream).toBe(true);
    expect(body.thinking).toEqual({ type: 'enabled' });
    expect(body.messages.at(-1)).toEqual({ role: 'user', content: '你好' });
  });
});
