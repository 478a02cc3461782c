/**
 * Skills of other clients' personal folders (issue 43 point 3): `zhi skill import --from claude`
 * lists `~/.claude/skills`, asks once (or takes --yes) and copies them untrusted; a skill zhi has
 * already is left; links are not copied; the REPL says such a folder once per client.
 */
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { KEY, promptFor } from '../helpers/pty.js';

const e = useE2E();

function claudeSkill(name: string, description: string): string {
  const folder = join(e.home, '.claude', 'skills', name);
  mkdirSync(join(folder, 'scripts'), { recursive: true });
  writeFileSync(join(folder, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\nDo it.\n`);
  writeFileSync(join(folder, 'scripts', 'run.py'), 'print(1)\n');
  return folder;
}

describe('zhi skill import --from claude', () => {
  it('lists the folder, needs a yes, copies the skills untrusted and leaves links out (en, zh)', async () => {
    const pdf = claudeSkill('pdf-forms', 'Fill PDF forms. Use when the user has a PDF form.');
    claudeSkill('mine', 'Already in zhi.');
    symlinkSync('/etc/hostname', join(pdf, 'scripts', 'host'));
    mkdirSync(join(e.home, 'skills', 'mine'), { recursive: true });
    writeFileSync(join(e.home, 'skills', 'mine', 'SKILL.md'), '---\nname: mine\ndescription: d\n---\nbody\n');

    const ask = await e.zhi(['skill', 'import', '--from', 'claude']);
    expect(ask.code).toBe(2);
    expect(ask.stderr).toContain('Skills of Claude Code in');
    expect(ask.stderr).toContain('pdf-forms — Fill PDF forms. Use when the user has a PDF form.');
    expect(ask.stderr).toContain('mine — (already in zhi:');
    expect(ask.stderr).toContain('`zhi skill import --from claude --yes`');
    expect(existsSync(join(e.home, 'skills', 'pdf-forms'))).toBe(false);

    const zh = await e.zhi(['skill', 'import', '--from', 'claude'], { env: { ZHI_LANGUAGE: 'zh' } });
    expect(zh.stderr).toContain('复制 1 个技能需要确认，而这里无法询问。');

    const yes = await e.zhi(['skill', 'import', '--from', 'claude', '--yes']);
    expect(yes.code).toBe(0);
    expect(yes.stderr).toMatch(/Copied into .*skills: pdf-forms\. They are not trusted yet/);
    expect(existsSync(join(e.home, 'skills', 'pdf-forms', 'scripts', 'run.py'))).toBe(true);
    expect(existsSync(join(e.home, 'skills', 'pdf-forms', 'scripts', 'host'))).toBe(false);
    const list = await e.zhi(['skill', 'list']);
    expect(list.stdout).toContain('pdf-forms');
  });

  it('refuses a client it does not know, naming the ones it does', async () => {
    const r = await e.zhi(['skill', 'import', '--from', 'cursor']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('zhi does not know the client "cursor"');
    expect(r.stderr).toContain('claude, codex');
  });

  it('the REPL says the folder once, with the command', async () => {
    claudeSkill('brand-voice', 'Write in the brand voice.');
    const start = async () => {
      const s = e.pty();
      await s.waitFor(promptFor('en'), 10_000);
      const shown = s.text();
      s.write(KEY.ctrlD);
      await s.exited();
      return shown;
    };
    const first = await start();
    expect(first).toMatch(/Skills of Claude Code that zhi does not have are in .*\.claude\/skills \(1\)/);
    expect(first).toContain('zhi skill import --from claude');
    expect(await start()).not.toContain('zhi skill import --from claude');
  });
});
