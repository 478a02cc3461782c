/**
 * Issue 23 point 6: a model that streams forever is stopped by a cap on the answer's size or
 * time, with a clear error in the person's language; what the run did before is kept.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';

const e = useE2E();
const { fake } = e;

/** Every file under `dir` whose text contains `needle`. */
function filesHolding(dir: string, needle: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name))
    .filter((f) => readFileSync(f, 'utf8').includes(needle));
}

describe('an answer that never ends', () => {
  it('is stopped past the size cap; the file written before and the session are kept', async () => {
    fake.script(
      {
        kind: 'tools',
        calls: [{ name: 'file_write', arguments: { path: 'kept.txt', content: 'written before' } }],
      },
      { kind: 'endless', text: 'and so on, ' },
    );
    const r = await e.zhi(['-c', 'write a note, then talk', '--auto'], {
      env: { ZHI_ANSWER_MAX_CHARS: '20000' },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('The answer grew far past any normal length, so zhi stopped it');
    expect(r.stderr).toContain('What arrived is kept above.');
    expect(r.stdout).toContain('and so on, and so on,');
    // Stopped soon after the cap, not at the end of the world.
    expect(r.stdout.length).toBeLessThan(200_000);
    expect(readFileSync(join(e.cwd, 'zhi-output', 'kept.txt'), 'utf8')).toContain('written before');
    // The conversation so far (the tool call and its result) is saved with the session.
    expect(filesHolding(e.home, 'kept.txt').length).toBeGreaterThan(0);
  });

  it('is stopped past the time cap, in Chinese for a Chinese user', async () => {
    fake.script({ kind: 'endless', text: '想', reasoning: true, delayMs: 20 });
    const r = await e.zhi(['-c', '你好'], {
      env: { ZHI_ANSWER_MAX_SECONDS: '2', ZHI_LANGUAGE: 'zh' },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('回答持续输出的时间远远超出正常回答所需，zhi 已停止接收');
    expect(r.stderr).toContain('已收到的内容保留在上方');
  });

  it('one line that never ends is stopped at the frame cap with a clear error (en and zh)', async () => {
    fake.script({ kind: 'endless', text: 'x', oneLine: true });
    const r = await e.zhi(['-c', 'hello']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('The API sent one piece of the stream that never ended');
    expect(r.stderr).toContain('One event of the stream passed 8 MB without ending.');
    fake.script({ kind: 'endless', text: 'x', oneLine: true });
    const zh = await e.zhi(['-c', '你好'], { env: { ZHI_LANGUAGE: 'zh' } });
    expect(zh.code).toBe(1);
    expect(zh.stderr).toContain('API 发来的一段流数据始终没有结束');
    expect(zh.stderr).toContain('流中的一个事件超过了 8 MB 仍未结束');
  });
});
