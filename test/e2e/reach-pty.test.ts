/** The shell tool with a person at a real terminal: asked every time, runs on yes, refused without asking. */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { sandboxState } from '../../src/tools/shell/sandbox.js';
import { useE2E } from '../helpers/e2e.js';

const e = useE2E();
const { fake } = e;
let home: string;
let cwd: string;
beforeEach(() => {
  ({ home, cwd } = e);
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
    const s = e.pty({ args: ['-c', 'make ran.txt', '--auto'] });
    try {
      await s.waitFor('Allow? [y/N]');
      expect(s.text()).toContain('zhi wants to run a command (shell):');
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
    const s = e.pty({ args: ['-c', 'delete old.txt'] });
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
    const s = e.pty({ args: ['-c', 'clean everything'] });
    try {
      expect((await s.exited()).exitCode).toBe(0);
      expect(s.text()).not.toContain('Allow?');
      expect(s.text()).toMatch(/Refused \(run a command\): it would delete or overwrite ~/);
      expect(existsSync(join(cwd, 'ran.txt'))).toBe(false);
      expect(existsSync(home)).toBe(true);
    } finally {
      s.kill();
    }
  });
});
