/**
 * `zhi -c` in a colour terminal draws like the REPL (spinner, tool lines in place). A question
 * must stop that live area: the approval and "Allow?" stay on screen, not drawn over by the
 * spinner line, and Ctrl+C at the question stops the run (exit 130) without REPL advice.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { KEY, type PtySession } from '../helpers/pty.js';
import { VirtualTerminal } from '../helpers/vt.js';

const e = useE2E();
const { fake } = e;

function screen(s: PtySession): string[] {
  const vt = new VirtualTerminal(100);
  vt.write(s.raw());
  return vt
    .text()
    .split('\n')
    .filter((l) => l.trim() !== '');
}

function writeCall() {
  fake.script(
    {
      kind: 'tools',
      calls: [
        { id: 'w', name: 'file_write', arguments: { path: 'notes.md', content: '# Notes\n\nline one\n' } },
      ],
    },
    { kind: 'text', text: 'Written.' },
  );
}

describe('zhi -c in a colour terminal asks on a screen nothing draws over', () => {
  for (const [lang, question] of [
    ['en', 'Allow? [y/N]'],
    ['zh', '允许吗？[y/N]'],
  ] as const) {
    it(`the question is the last thing on screen, and y writes the file (${lang})`, async () => {
      writeCall();
      const s = e.pty({ args: ['-c', 'write it'], env: { FORCE_COLOR: '1', ZHI_LANGUAGE: lang } });
      try {
        await s.waitFor(question);
        // Give a late spinner frame the chance to draw over it, as it did before the fix.
        await new Promise((r) => setTimeout(r, 300));
        const lines = screen(s);
        expect(lines.at(-1)).toContain(question);
        expect(lines.join('\n')).toContain('line one');
        s.write(`y${KEY.enter}`);
        expect((await s.exited()).exitCode).toBe(0);
      } finally {
        s.kill();
      }
      expect(existsSync(join(e.cwd, 'zhi-output', 'notes.md'))).toBe(true);
    });
  }

  it('Ctrl+C at the question stops the run: exit 130, nothing written, no "type your next message"', async () => {
    writeCall();
    const s = e.pty({ args: ['-c', 'write it'], env: { FORCE_COLOR: '1' } });
    try {
      await s.waitFor('Allow? [y/N]');
      s.write(KEY.ctrlC);
      expect((await s.exited()).exitCode).toBe(130);
      expect(s.text()).toContain('Interrupted.');
      expect(s.text()).not.toContain('next message');
    } finally {
      s.kill();
    }
    expect(existsSync(join(e.cwd, 'zhi-output', 'notes.md'))).toBe(false);
  });
});
