/**
 * Issue 30, a newcomer's first hour, the parts without a terminal: an output folder that cannot
 * be made is refused at once (it used to hang in Node's recursive mkdir), and a site that does not
 * exist is not called a missing file.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';

const e = useE2E();
const { fake } = e;

describe.each(['en', 'zh'] as const)('--output-dir that cannot be used (%s)', (lang) => {
  const env = { ZHI_LANGUAGE: lang };
  it.runIf(process.platform === 'linux')(
    'a folder under /proc: refused at once, naming the folder, before any request',
    async () => {
      const r = await e.zhi(['-c', '写 a.md', '--auto', '--output-dir', '/proc/zhi-out'], {
        env,
        timeoutMs: 15_000,
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('/proc/zhi-out');
      expect(r.stderr).toContain('--output-dir');
      expect(fake.chatBodies()).toHaveLength(0);
    },
  );

  it('a path through a file: refused, naming the file', async () => {
    writeFileSync(join(e.cwd, 'notes.txt'), 'x');
    const r = await e.zhi(['-c', '写 a.md', '--auto', '--output-dir', 'notes.txt/out'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(join(e.cwd, 'notes.txt'));
    expect(r.stderr).toMatch(lang === 'zh' ? /是一个文件，不是文件夹/ : /is a file, not a folder/);
    expect(fake.chatBodies()).toHaveLength(0);
  });

  it('a folder that does not exist yet is not left behind by the check', async () => {
    fake.script({ kind: 'text', text: 'OK' });
    const r = await e.zhi(['-c', 'hi', '--output-dir', 'new/out'], { env });
    expect(r.code).toBe(0);
    expect(existsSync(join(e.cwd, 'new'))).toBe(false);
  });
});

describe('a site that cannot be found', () => {
  it('is not "file not found" in the Chinese UI', async () => {
    fake.script(
      {
        kind: 'tools',
        calls: [{ name: 'web_fetch', arguments: { url: 'https://nosuch-site.invalid/page' } }],
      },
      { kind: 'text', text: '打不开。' },
    );
    const r = await e.zhi(['-c', '看看 https://nosuch-site.invalid/page', '--auto'], {
      env: { ZHI_LANGUAGE: 'zh' },
    });
    expect(r.code).toBe(0);
    // The tool line names the action in words (打开 = open a web page), not the internal name.
    expect(r.stderr).toContain('打开 nosuch-site.invalid');
    expect(r.stderr).not.toContain('没有找到这个文件');
    expect(r.stderr).toMatch(/网站 nosuch-site\.invalid (不存在|无法连接)|无法连接网站 nosuch-site\.invalid/);
  });
});

describe('--help (issue 30 #15)', () => {
  it('lists every command and folder option', async () => {
    const r = await e.zhi(['--help']);
    expect(r.code).toBe(0);
    for (const word of [
      'zhi batch',
      '--jobs',
      '--dry-run',
      '--batch',
      '--force',
      '--yes',
      '--recursive',
      '--include',
      '--exclude',
      'zhi doctor',
      'zhi models',
      'zhi mcp',
    ])
      expect(r.stdout).toContain(word);
  });

  it('honours language: zh from config.yaml', async () => {
    writeFileSync(join(e.home, 'config.yaml'), 'language: zh\n');
    const r = await e.zhi(['--help'], { env: { ZHI_LANGUAGE: undefined, LANG: 'en_US.UTF-8' } });
    expect(r.stdout).toContain('用法：');
    expect(r.stdout).toContain('文件夹选项');
  });
});
