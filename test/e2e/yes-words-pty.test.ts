/**
 * One reading of "yes" for every question: the Chinese yes-words (可以, 好的, 是的) approve in
 * `zhi -c` and `zhi run` as they do in the REPL — tool approvals, the overwrite question and the
 * trust question alike. A word that is not yes still keeps the file.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { KEY, type PtySession } from '../helpers/pty.js';

const e = useE2E();
const { fake } = e;

const write = (path: string, content: string) => ({
  kind: 'tools' as const,
  calls: [{ id: 'w', name: 'file_write', arguments: { path, content } }],
});

function open(args: string[], env: Record<string, string> = {}): PtySession {
  return e.pty({ args, env: { NO_COLOR: '1', ...env } });
}

describe('Chinese yes-words outside the REPL', () => {
  it('zhi -c: 可以 approves a write, 好的 replaces an existing file, 不 keeps it', async () => {
    fake.script(write('a.md', '第一'), { kind: 'text', text: 'done' });
    const s = open(['-c', 'write it'], { ZHI_LANGUAGE: 'zh' });
    try {
      await s.waitFor('允许吗？[y/N]');
      s.write(`可以${KEY.enter}`);
      expect((await s.exited()).exitCode).toBe(0);
    } finally {
      s.kill();
    }
    expect(readFileSync(join(e.cwd, 'zhi-output', 'a.md'), 'utf8')).toBe('第一\n');

    for (const [answer, expected] of [
      ['不', '第一\n'],
      ['好的', '第二\n'],
    ] as const) {
      fake.reset();
      fake.script(write('a.md', '第二'), { kind: 'text', text: 'done' });
      const again = open(['-c', 'write it', '--auto'], { ZHI_LANGUAGE: 'zh' });
      try {
        await again.waitFor('已存在。要用新的');
        again.write(`${answer}${KEY.enter}`);
        expect((await again.exited()).exitCode).toBe(0);
      } finally {
        again.kill();
      }
      expect(readFileSync(join(e.cwd, 'zhi-output', 'a.md'), 'utf8')).toBe(expected);
    }
  });

  it('zhi run: 可以 trusts a user skill and 是的 approves its write', async () => {
    mkdirSync(join(e.home, 'skills'));
    writeFileSync(
      join(e.home, 'skills', 'writer.yaml'),
      'name: writer\ndescription: Writes notes\nsystem_prompt: You write a note.\ntools: [file_write]\n',
    );
    fake.script(write('note.md', '笔记'), { kind: 'text', text: '写好了' });
    const s = open(['run', 'writer'], { ZHI_LANGUAGE: 'zh' });
    try {
      await s.waitFor('信任并运行这个技能吗');
      const asked = s.mark();
      s.write(`可以${KEY.enter}`);
      await s.waitFor('zhi-output/note.md', 10_000, asked);
      await s.waitFor('允许吗？[y/N]', 10_000, asked);
      s.write(`是的${KEY.enter}`);
      expect((await s.exited()).exitCode).toBe(0);
    } finally {
      s.kill();
    }
    expect(readFileSync(join(e.cwd, 'zhi-output', 'note.md'), 'utf8')).toBe('笔记\n');
  });
});
