/**
 * The person's lasting allow rules (`allow:` in config.yaml), end to end with the built zhi and
 * the fake API, with no terminal (where a question would be a refusal): a rule lets the call it
 * names run, not its neighbours; a bad entry is a warning naming its line; `zhi config allow`
 * adds, lists and removes rules and `zhi config show` shows them.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { KEY, promptFor, submit } from '../helpers/pty.js';
import { unwrap } from '../helpers/untrusted.js';

const e = useE2E();
const { fake } = e;

function config(yaml: string): void {
  writeFileSync(join(e.home, 'config.yaml'), yaml);
}

function calls(...list: { id: string; name: string; arguments: Record<string, unknown> }[]): void {
  fake.script({ kind: 'tools', calls: list }, { kind: 'text', text: 'Done.' });
}

function toolResult(id: string): string {
  const m = fake
    .chatBodies()[1]
    .messages.find((x: { role: string; tool_call_id?: string }) => x.tool_call_id === id);
  return unwrap(m.content);
}

describe('allow rules in config.yaml', () => {
  it('tool: file_write lets a write run with no terminal; without the rule it is refused', async () => {
    const write = { id: 'c_w', name: 'file_write', arguments: { path: 'plan.md', content: 'the plan' } };
    calls(write);
    await e.zhi(['-c', 'write the plan']);
    expect(existsSync(join(e.cwd, 'zhi-output', 'plan.md'))).toBe(false);
    expect(toolResult('c_w')).toMatch(/no terminal|not a terminal/i);

    fake.restore();
    config('allow:\n  - tool: file_write\n');
    calls(write);
    const r = await e.zhi(['-c', 'write the plan']);
    expect(r.code).toBe(0);
    expect(readFileSync(join(e.cwd, 'zhi-output', 'plan.md'), 'utf8')).toContain('the plan');
  });

  it('shell: echo runs echo commands, not a line that chains another command', async () => {
    config('allow:\n  - shell: echo\n');
    calls(
      { id: 'c_1', name: 'shell', arguments: { command: 'echo hello-from-rule' } },
      { id: 'c_2', name: 'shell', arguments: { command: 'echo a && touch made.txt' } },
      { id: 'c_3', name: 'shell', arguments: { command: 'printf x' } },
    );
    const r = await e.zhi(['-c', 'say hello']);
    expect(r.code).toBe(0);
    expect(toolResult('c_1')).toContain('hello-from-rule');
    expect(toolResult('c_2')).toMatch(/no terminal|not a terminal/i);
    expect(existsSync(join(e.cwd, 'made.txt'))).toBe(false);
    expect(toolResult('c_3')).toMatch(/no terminal|not a terminal/i);
  });

  it('a bad entry is left out with a warning that names its line; the good ones hold', async () => {
    config('language: en\nallow:\n  - tool: file_write\n  - shell: "ls; rm -rf x"\n  - nothing: here\n');
    calls({ id: 'c_w', name: 'file_write', arguments: { path: 'a.md', content: 'a' } });
    const r = await e.zhi(['-c', 'write']);
    expect(r.stderr).toContain('allow rule');
    expect(r.stderr).toContain('(line 4)');
    expect(r.stderr).toContain('(line 5)');
    expect(r.stderr).toMatch(/shell: is one plain command/);
    expect(existsSync(join(e.cwd, 'zhi-output', 'a.md'))).toBe(true);
  });

  it('a tool: rule naming the shell or no tool of zhi is said to allow nothing', async () => {
    config('allow:\n  - tool: shell\n  - tool: files__read_file\n  - tool: file_write\n');
    const r = await e.zhi(['config', 'show']);
    expect(r.stderr).toContain('The allow rule "tool: shell" in');
    expect(r.stderr).toMatch(/names files__read_file, which is not one of zhi's tools \(file_read,/);
    expect(r.stderr).not.toContain('file_write, which');
  });

  it('in Chinese the warning is Chinese', async () => {
    config('language: zh\nallow:\n  - mcp: files\n    shell: ls\n');
    const r = await e.zhi(['config', 'show']);
    expect(r.stderr).toContain('中的一条允许规则（第 3 行）未被使用');
  });

  it('zhi config allow adds, lists and removes rules; config show and a refused tool: shell', async () => {
    expect((await e.zhi(['config', 'allow', 'add', 'shell', 'git', 'status'])).stdout).toContain(
      'Added: shell: git status',
    );
    await e.zhi(['config', 'allow', 'add', 'mcp', 'files', 'read_text_file']);
    await e.zhi(['config', 'allow', 'add', 'tool', 'web_fetch', 'docs.example.com']);
    const whole = await e.zhi(['config', 'allow', 'add', 'tool', 'shell']);
    expect(whole.code).toBe(2);
    expect(whole.stderr).toContain('cannot allow every shell call');
    const list = await e.zhi(['config', 'allow', 'list']);
    expect(list.stdout).toMatch(
      /1\. shell: git status\n\s+2\. mcp: files, tool: read_text_file\n\s+3\. tool: web_fetch, host: docs.example.com/,
    );
    expect((await e.zhi(['config', 'show'])).stdout).toMatch(/^allow\s+shell: git status; mcp: files/m);
    expect((await e.zhi(['config', 'allow', 'remove', '1'])).stdout).toContain('Removed: shell: git status');
    expect(readFileSync(join(e.home, 'config.yaml'), 'utf8')).not.toContain('git status');
    const none = await e.zhi(['config', 'allow', 'remove', '7']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('There is no allow rule number 7');
  });

  it('/status shows the rules, in English and in Chinese', async () => {
    config('allow:\n  - shell: git status\n  - mcp: files\n');
    const s = e.pty({ cols: 120, rows: 40 });
    await s.waitFor(promptFor('en'), 10_000);
    const shown = await submit(s, '/status', promptFor('en'));
    expect(shown).toMatch(/Allowed by config:\s+shell: git status; mcp: files/);
    s.write(KEY.ctrlD);
    await s.exited();

    config('language: zh\nallow:\n  - tool: file_write\n');
    const z = e.pty({ cols: 120, rows: 40 });
    await z.waitFor(promptFor('zh'), 10_000);
    expect(await submit(z, '/status', promptFor('zh'))).toMatch(/配置中允许：\s*tool: file_write/);
  });
});
