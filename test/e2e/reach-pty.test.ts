/** The shell tool with a person at a real terminal: asked every time, runs on yes, refused without asking. */
import { existsSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { useFakeZhipu } from '../helpers/fake.js';
import { sandboxState } from '../../src/tools/sandbox.js';
import { PtySession } from '../helpers/pty.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

let home: string;
let cwd: string;

const fake = useFakeZhipu();
beforeEach(() => {
  fake.reset();
  home = tempDir('zhi-home-');
  cwd = realpathSync(tempDir('zhi-work-'));
  return () => cleanup(home, cwd);
});

// With a sandbox, writing in the current folder takes the "w" answer.
const sandboxed = process.platform === 'linux' && sandboxState().kind !== 'none';

const toolResult = () =>
  fake.chatBodies()[1].messages.find((m: { role: string }) => m.role === 'tool').content as string;

describe.runIf(process.platform !== 'win32')('shell in a terminal', () => {
  it('shows the whole command, runs it on "w" (write here, even in auto mode it asks), and reports the result', async () => {
    fake.script(
      {
        kind: 'tools',
        calls: [{ name: 'shell', arguments: { command: 'echo made > ran.txt && echo finished' } }],
      },
      { kind: 'text', text: 'Created ran.txt.' },
    );
    const s = new PtySession({ args: ['-c', 'make ran.txt', '--auto'], home, cwd, baseUrl: fake.baseUrl });
    try {
      await s.waitFor('Allow? [y/N]');
      expect(s.text()).toContain('zhi wants to run shell:');
      expect(s.text()).toContain('$ echo made > ran.txt && echo finished');
      expect(s.text()).toContain(`in folder: ${cwd}`);
      expect(s.text()).toContain('This command can change or delete files: overwrites ran.txt.');
      expect(existsSync(join(cwd, 'ran.txt'))).toBe(false);
      s.write(sandboxed ? 'w\r' : 'y\r');
      expect((await s.exited()).exitCode).toBe(0);
      expect(existsSync(join(cwd, 'ran.txt'))).toBe(true);
      expect(toolResult()).toMatch(/^Exit code: 0 \(.*\)\n\nstdout:\nfinished\n\nIt ran /);
    } finally {
      s.kill();
    }
  });

  it('a destructive command is warned in red; "n" leaves the file alone', async () => {
    writeFileSync(join(cwd, 'old.txt'), 'keep me');
    fake.script(
      { kind: 'tools', calls: [{ name: 'shell', arguments: { command: 'rm old.txt' } }] },
      { kind: 'text', text: 'Left it.' },
    );
    const s = new PtySession({ args: ['-c', 'delete old.txt'], home, cwd, baseUrl: fake.baseUrl });
    try {
      await s.waitFor('Allow? [y/N]');
      expect(s.raw()).toMatch(/\x1b\[31m[^\n]*This command can change or delete files: deletes files \(rm\)/);
      s.write('n\r');
      expect((await s.exited()).exitCode).toBe(0);
      expect(existsSync(join(cwd, 'old.txt'))).toBe(true);
      expect(toolResult()).toMatch(/declined/);
    } finally {
      s.kill();
    }
  });

  it('a catastrophic command is refused without a question', async () => {
    fake.script(
      { kind: 'tools', calls: [{ name: 'shell', arguments: { command: 'touch ran.txt; rm -rf ~' } }] },
      { kind: 'text', text: 'I will not do that.' },
    );
    const s = new PtySession({ args: ['-c', 'clean everything'], home, cwd, baseUrl: fake.baseUrl });
    try {
      expect((await s.exited()).exitCode).toBe(0);
      expect(s.text()).not.toContain('Allow?');
      expect(s.text()).toMatch(/shell was refused: it would delete or overwrite ~/);
      expect(existsSync(join(cwd, 'ran.txt'))).toBe(false);
      expect(existsSync(home)).toBe(true);
    } finally {
      s.kill();
    }
  });
});
