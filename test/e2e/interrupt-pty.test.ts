/**
 * One Ctrl+C for every mode: it stops the answer cleanly (exit 130), and what the stopped answer
 * cost is still counted — in `zhi usage` and in the session — although the server never sent the
 * usage of its last chunk.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { useFakeZhipu } from '../helpers/fake.js';
import { KEY, PtySession } from '../helpers/pty.js';
import { cleanup, runZhi, tempDir } from '../helpers/zhi.js';

let home: string;
const fake = useFakeZhipu();
beforeEach(() => {
  fake.reset();
  home = tempDir('zhi-home-');
  return () => cleanup(home);
});

async function usageJson() {
  const r = await runZhi({ args: ['usage', '--output-format', 'json'], home });
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as {
    calls: number;
    total: { prompt_tokens: number; completion_tokens: number };
  };
}

describe('Ctrl+C', () => {
  it('zhi -c: stops the answer (exit 130) and its usage is counted in zhi usage', async () => {
    fake.script({ kind: 'hang', text: '这是一个很长的回答，说到一半就被打断了。'.repeat(4) });
    const s = new PtySession({
      args: ['-c', '讲个故事'],
      home,
      baseUrl: fake.baseUrl,
      env: { NO_COLOR: '1' },
    });
    try {
      await s.waitFor('说到一半');
      s.write(KEY.ctrlC);
      expect((await s.exited()).exitCode).toBe(130);
    } finally {
      s.kill();
    }
    const usage = await usageJson();
    expect(usage.calls).toBe(1);
    expect(usage.total.prompt_tokens).toBeGreaterThan(0);
    expect(usage.total.completion_tokens).toBeGreaterThan(0);
  });

  it('pipe mode (stream-json): SIGINT stops the answer with exit 130, usage counted', async () => {
    fake.script({ kind: 'hang', text: 'A long answer that never ends, cut by an interrupt. '.repeat(3) });
    const { spawn } = await import('node:child_process');
    const { testEnv, ZHI_BIN } = await import('../helpers/zhi.js');
    const child = spawn(process.execPath, [ZHI_BIN, '--output-format', 'stream-json'], {
      cwd: home,
      env: testEnv({ home, baseUrl: fake.baseUrl }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stdin.end('tell me');
    const code = await new Promise<number | null>((resolve) => {
      const poll = setInterval(() => {
        if (stdout.includes('text_delta')) {
          clearInterval(poll);
          child.kill('SIGINT');
        }
      }, 20);
      child.on('close', (c) => {
        clearInterval(poll);
        resolve(c);
      });
    });
    expect(code).toBe(130);
    // The stopped answer's usage was an event of the stream too.
    expect(stdout).toMatch(/"type":"usage"/);
    const usage = await usageJson();
    expect(usage.calls).toBe(1);
    expect(usage.total.completion_tokens).toBeGreaterThan(0);
  });
});
