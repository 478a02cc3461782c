/**
 * file_write with a person at the terminal: the permission prompt shows a preview (path, format,
 * size, first lines), and replacing an existing file needs a second, explicit yes — even in auto
 * mode.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { KEY } from '../helpers/pty.js';

const e = useE2E();
const { fake } = e;
let cwd: string;
beforeEach(() => {
  cwd = e.cwd;
});

function toolResult(requestIndex: number, id: string): string {
  const body = fake.chatBodies()[requestIndex];
  return body.messages.find(
    (m: { role: string; tool_call_id?: string }) => m.role === 'tool' && m.tool_call_id === id,
  )?.content;
}

const rows = Array.from({ length: 40 }, (_, i) => [`产品 ${i}`, i * 10]);

describe('file_write at a terminal', () => {
  it('approve mode: the prompt previews the file; yes writes it', async () => {
    fake.script(
      {
        kind: 'tools',
        calls: [
          {
            id: 'w',
            name: 'file_write',
            arguments: {
              path: 'list.xlsx',
              content: { sheets: [{ name: 'S', headers: ['名称', '数量'], rows }] },
            },
          },
        ],
      },
      { kind: 'text', text: 'saved' },
    );
    const s = e.pty({ args: ['-c', 'save it'], env: { NO_COLOR: '1' } });
    try {
      await s.waitFor('Allow?');
      const asked = s.raw().lastIndexOf('Allow?');
      await new Promise((r) => setTimeout(r, 400));
      // Nothing redraws over the question while it waits (a spinner used to erase it).
      expect(s.raw().slice(asked)).not.toContain('\x1b[2K');
      const screen = s.text();
      expect(screen).toMatch(/zhi-output\/list\.xlsx \(Excel workbook, \d+ B of content\)/);
      expect(screen).toContain('名称 | 数量');
      expect(screen).toContain('产品 0 | 0');
      expect(screen).toMatch(/… 33 more lines/);
      expect(screen).not.toContain('产品 39'); // summarised, not the whole payload
      s.write(`y${KEY.enter}`);
      expect((await s.exited()).exitCode).toBe(0);
      expect(toolResult(1, 'w')).toMatch(/^Wrote zhi-output\/list\.xlsx/);
      expect(readdirSync(join(cwd, 'zhi-output'))).toEqual(['list.xlsx']);
    } finally {
      s.kill();
    }
  });

  it('auto mode still asks before replacing a file; no keeps it, yes replaces it', async () => {
    mkdirSync(join(cwd, 'zhi-output'));
    writeFileSync(join(cwd, 'zhi-output', 'notes.md'), 'original');
    const call = {
      kind: 'tools' as const,
      calls: [{ id: 'w', name: 'file_write', arguments: { path: 'notes.md', content: '新内容' } }],
    };

    fake.script(call, { kind: 'text', text: 'kept' });
    const no = e.pty({ args: ['-c', 'write', '--auto'], env: { NO_COLOR: '1' } });
    try {
      await no.waitFor(/zhi-output\/notes\.md already exists\. Replace it with the new Markdown\?/);
      expect(no.text()).toMatch(
        /The existing file \(8 B, modified \d{4}-\d\d-\d\d \d\d:\d\d\) will be replaced/,
      );
      no.write(`n${KEY.enter}`);
      expect((await no.exited()).exitCode).toBe(0);
    } finally {
      no.kill();
    }
    expect(toolResult(1, 'w')).toMatch(/^Error: The user chose to keep the existing zhi-output\/notes\.md/);
    expect(readFileSync(join(cwd, 'zhi-output', 'notes.md'), 'utf8')).toBe('original');

    fake.reset();
    fake.script(call, { kind: 'text', text: 'replaced' });
    const yes = e.pty({ args: ['-c', 'write', '--auto'], env: { NO_COLOR: '1' } });
    try {
      await yes.waitFor('already exists');
      yes.write(`y${KEY.enter}`);
      expect((await yes.exited()).exitCode).toBe(0);
    } finally {
      yes.kill();
    }
    expect(toolResult(1, 'w')).toMatch(/^Replaced zhi-output\/notes\.md/);
    expect(readFileSync(join(cwd, 'zhi-output', 'notes.md'), 'utf8')).toBe('新内容\n');
    expect(readdirSync(join(cwd, 'zhi-output'))).toEqual(['notes.md']);
  });
});
