/**
 * Issue 10's "done when", as a person at a 24-row terminal would live it: the approval cannot be
 * made to lie (newline padding, escape sequences), and with the sandbox on, an approved command
 * still cannot touch anything outside the output folder nor reach the network.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { sandboxState } from '../../src/tools/shell/sandbox.js';
import { useE2E } from '../helpers/e2e.js';
import { VirtualTerminal } from '../helpers/vt.js';

const e = useE2E();
const { fake } = e;
let cwd: string;
let victim: string;
beforeEach(() => {
  cwd = e.cwd;
  // Outside the output folder, in a place the command can read (the current folder).
  victim = join(cwd, 'victim');
  mkdirSync(victim);
  mkdirSync(join(cwd, 'thesis'));
  writeFileSync(join(cwd, 'thesis', 'chapter1.md'), 'years of work');
  mkdirSync(join(victim, 'Documents'));
  writeFileSync(join(victim, 'Documents', 'contract.docx'), 'signed');
});

const ROWS = 24;
const sandboxed = process.platform === 'linux' && sandboxState().kind === 'bwrap';
if (process.platform === 'linux' && !sandboxed) {
  console.warn(
    '[skip] sandbox end-to-end tests: bubblewrap missing or unusable here (apt-get install bubblewrap)',
  );
}

/** The 24 rows a person sees when the question appears: the screen ending at the last `Allow?`. */
function screenAtQuestion(raw: string): string[] {
  const vt = new VirtualTerminal(100);
  vt.write(raw);
  const lines = vt.text().split('\n');
  let last = lines.length - 1;
  while (last >= 0 && !lines[last]!.includes('Allow?')) last--;
  return lines.slice(Math.max(0, last - ROWS + 1), last + 1);
}

/** The tool results the model got, in order (the last request carries them all). */
const toolResults = (): string[] =>
  (fake.chatBodies().at(-1)?.messages ?? [])
    .filter((m: { role: string }) => m.role === 'tool')
    .map((m: { content: string }) => m.content);

describe.runIf(process.platform !== 'win32')('an approval that cannot lie', () => {
  it('a dangerous first line hidden by forty newlines stays on screen with its warning; "y" harms nothing outside the output folder', async () => {
    const command = `rm -rf thesis${'\n'.repeat(40)}ls -la`;
    fake.script(
      { kind: 'tools', calls: [{ name: 'shell', arguments: { command } }] },
      { kind: 'text', text: 'Done.' },
    );
    const s = e.pty({ args: ['-c', 'tidy up'], rows: ROWS });
    try {
      await s.waitFor('Allow?');
      const screen = screenAtQuestion(s.raw()).join('\n');
      expect(screen).toContain('1 │ rm -rf thesis');
      // The padding is one line; the command's last line is in sight too.
      expect(screen).toContain('… 39 empty lines …');
      expect(screen).toContain('41 │ ls -la');
      expect(screen).toMatch(/deletes files \(rm\)/);
      const rows = screenAtQuestion(s.raw());
      // The warning and the sandbox line are the last lines above the question.
      expect(rows[rows.length - 3]).toMatch(/This command can change or delete files/);
      expect(rows[rows.length - 2]).toMatch(
        sandboxed
          ? /sandboxed: reads this folder and system files, new files only in zhi-output\//
          : /not sandboxed/,
      );
      const before = s.mark();
      s.write('v\r');
      await s.waitFor(/20 │[\s\S]*41 │ ls -la[\s\S]*Allow\?/, 10_000, before);
      s.write('y\r');
      expect((await s.exited()).exitCode).toBe(0);
      if (sandboxed) {
        expect(existsSync(join(cwd, 'thesis', 'chapter1.md'))).toBe(true);
        expect(toolResults()[0]).toMatch(/Read-only file system/);
      }
    } finally {
      s.kill();
    }
  });

  it('escape sequences from the model are shown, never executed; a command holding one is refused', async () => {
    fake.script(
      {
        kind: 'tools',
        content: 'Let me look\x1b[?7l\x1b]0;owned\x07.',
        calls: [
          { name: 'file_read', arguments: { path: 'notes\x1b[2J.md' } },
          { name: 'shell', arguments: { command: 'ls\x1b[?7l; rm -rf thesis' } },
        ],
      },
      { kind: 'text', text: 'Sorry\x1b[?7l.' },
    );
    const s = e.pty({ args: ['-c', 'look'], rows: ROWS });
    try {
      expect((await s.exited()).exitCode).toBe(0);
      expect(s.raw()).not.toContain('\x1b[?7l');
      expect(s.raw()).not.toContain('\x1b]0;owned');
      expect(s.raw()).not.toContain('\x1b[2J');
      expect(s.text()).toContain('␛[?7l');
      expect(s.text()).toContain('notes␛[2J.md');
      expect(s.text()).not.toContain('Allow?');
      expect(s.text()).toMatch(
        /Refused \(run a command\): it contains control characters or escape sequences \(␛\)/,
      );
      expect(existsSync(join(cwd, 'thesis', 'chapter1.md'))).toBe(true);
    } finally {
      s.kill();
    }
  });
});

describe.runIf(sandboxed)('with the sandbox on, approved commands still cannot do harm', () => {
  it('rm -rf of a folder outside, a python script writing outside, and curl without network all fail', async () => {
    writeFileSync(
      join(cwd, 'writer.py'),
      `open(${JSON.stringify(join(victim, 'owned.txt'))}, 'w').write('x')\nprint('wrote')\n`,
    );
    const url = `${fake.baseUrl.replace(/\/api.*$/, '')}/ping`;
    fake.script(
      { kind: 'tools', calls: [{ name: 'shell', arguments: { command: `rm -rf ${victim}/Documents` } }] },
      { kind: 'tools', calls: [{ name: 'shell', arguments: { command: 'python3 writer.py' } }] },
      { kind: 'tools', calls: [{ name: 'shell', arguments: { command: `curl -sS -m 5 ${url}` } }] },
      { kind: 'text', text: 'All three failed.' },
    );
    const requestsBefore = fake.chatBodies().length;
    const s = e.pty({ args: ['-c', 'go'], rows: ROWS });
    try {
      for (let i = 0; i < 3; i++) {
        const from = s.mark();
        await s.waitFor('Allow?', 10_000, from);
        expect(s.text().slice(from)).toContain(
          'sandboxed: reads this folder and system files, new files only in zhi-output/, no network',
        );
        s.write('y\r');
      }
      expect((await s.exited()).exitCode).toBe(0);
      expect(readdirSync(join(victim, 'Documents'))).toEqual(['contract.docx']);
      expect(existsSync(join(victim, 'owned.txt'))).toBe(false);
      const [rm, py, curl] = toolResults();
      expect(rm).toMatch(/Read-only file system/);
      expect(py).toMatch(/Read-only file system/);
      expect(curl).toMatch(/Exit code: [1-9]/);
      expect(curl).toMatch(/curl: \(\d+\)/);
      // Four model calls and nothing else: curl never reached the server.
      expect(fake.chatBodies().length - requestsBefore).toBe(4);
    } finally {
      s.kill();
    }
  });
});
