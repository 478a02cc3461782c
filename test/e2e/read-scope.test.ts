/**
 * Reads by scope, end to end: the model's file_read of a hidden file or VCS internals is refused
 * (the person is told why, in their language) unless the person named that path in their message.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';

const e = useE2E();

const toolResults = (i: number) =>
  Object.fromEntries(
    (e.fake.chatBodies()[i]?.messages ?? [])
      .filter((m: { role: string }) => m.role === 'tool')
      .map((m: { tool_call_id: string; content: string }) => [m.tool_call_id, m.content]),
  );

describe('reads by scope', () => {
  it('refuses .git/config and a deep hidden file the person did not name, with the reason (en and zh)', async () => {
    mkdirSync(join(e.cwd, '.git'));
    writeFileSync(
      join(e.cwd, '.git', 'config'),
      '[remote "origin"]\n  url = https://ghp_token@github.com/a/b\n',
    );
    mkdirSync(join(e.cwd, 'node_modules', 'a', 'b', 'c', 'd'), { recursive: true });
    writeFileSync(join(e.cwd, 'node_modules', 'a', 'b', 'c', 'd', '.secret-notes'), 'pw');
    writeFileSync(join(e.cwd, 'infra.tfstate'), '{"password":"x"}');
    const calls = [
      { id: 'g', name: 'file_read', arguments: { path: '.git/config' } },
      { id: 'n', name: 'file_read', arguments: { path: 'node_modules/a/b/c/d/.secret-notes' } },
      { id: 't', name: 'file_read', arguments: { path: 'infra.tfstate' } },
    ];
    e.fake.script({ kind: 'tools', calls }, { kind: 'text', text: 'ok' });
    const r = await e.zhi(['-c', 'summarize the repository', '--auto']);
    expect(r.code).toBe(0);
    const results = toolResults(1);
    expect(results.g).toContain('version-control internals');
    expect(results.g).not.toContain('ghp_token');
    expect(results.n).toContain('hidden file');
    expect(results.t).toContain('state or credentials file');
    expect(r.stderr).toContain('Name it yourself to let zhi read it');

    e.fake.script({ kind: 'tools', calls: [calls[0]!] }, { kind: 'text', text: 'ok' });
    const zh = await e.zhi(['-c', '总结一下', '--auto'], { env: { ZHI_LANGUAGE: 'zh' } });
    expect(zh.stderr).toContain('如需让 zhi 读取，请自己点名');
  });

  it('reads .git/config once the person names it', async () => {
    mkdirSync(join(e.cwd, '.git'));
    writeFileSync(join(e.cwd, '.git', 'config'), '[core]\n  bare = false\n');
    e.fake.script(
      { kind: 'tools', calls: [{ id: 'g', name: 'file_read', arguments: { path: '.git/config' } }] },
      { kind: 'text', text: 'ok' },
    );
    const r = await e.zhi(['-c', 'what is in .git/config?']);
    expect(r.code).toBe(0);
    expect(toolResults(1).g).toContain('bare = false');
  });
});
