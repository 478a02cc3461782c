/**
 * House rules reach `zhi run` as they reach the chat (ZHI.md, or CLAUDE.md where there is no
 * ZHI.md/AGENTS.md), with their `@file` imports; a file cut at 12,000 characters is said, naming it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';

const e = useE2E();
const { fake } = e;

const systemOf = (i: number): string => fake.chatBodies()[i].messages[0].content;

describe('house rules in zhi run', () => {
  it('a skill run gets ZHI.md and the file it imports', async () => {
    writeFileSync(join(e.cwd, 'ZHI.md'), 'House rule: amounts in 万元.\n@style.md\n');
    writeFileSync(join(e.cwd, 'style.md'), 'Style: no exclamation marks.');
    writeFileSync(join(e.cwd, 'a.md'), 'Budget meeting.');
    fake.script({ kind: 'text', text: 'Summary.' });
    const r = await e.zhi(['run', 'summarize', 'a.md']);
    expect(r.code).toBe(0);
    expect(systemOf(0)).toContain('House rule: amounts in 万元.\nStyle: no exclamation marks.');
    expect(r.stderr).not.toContain('house rules');
  });

  it('CLAUDE.md is read where there is no ZHI.md or AGENTS.md; a cut is said (English and Chinese)', async () => {
    writeFileSync(join(e.cwd, 'CLAUDE.md'), `Claude rule.\n${'x'.repeat(12_100)}`);
    writeFileSync(join(e.cwd, 'a.md'), 'text');
    fake.script({ kind: 'text', text: 'ok' }, { kind: 'text', text: 'ok' });
    const r = await e.zhi(['run', 'summarize', 'a.md']);
    expect(systemOf(0)).toContain('Claude rule.');
    expect(r.stderr).toContain(
      `The house rules in ${join(e.cwd, 'CLAUDE.md')} are longer than 12,000 characters`,
    );
    const zh = await e.zhi(['-c', 'hi'], { env: { ZHI_LANGUAGE: 'zh' } });
    expect(systemOf(1)).toContain('Claude rule.');
    expect(zh.stderr).toContain(`${join(e.cwd, 'CLAUDE.md')} 中的规则超过 12,000 个字符`);
  });
});
