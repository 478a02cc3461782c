/**
 * The person's hooks from config.yaml, end to end with the built zhi and the fake API: a
 * before_tool hook blocks a file_write (the file is not written, the model is told why in
 * English, the person sees the hook's words marked as the hook's), a hook for another tool lets
 * it through, and after_tool / after_turn / session hooks hear their events.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { unwrap } from '../helpers/untrusted.js';

const e = useE2E();
const { fake } = e;

const node = JSON.stringify(process.execPath);
/** A hook command that runs this JavaScript with node. */
const js = (code: string) => `${node} -e ${JSON.stringify(code)}`;

function config(yaml: string): void {
  writeFileSync(join(e.home, 'config.yaml'), yaml);
}

function writeCall(): void {
  fake.script(
    {
      kind: 'tools',
      calls: [{ id: 'c_w', name: 'file_write', arguments: { path: 'plan.md', content: 'the plan' } }],
    },
    { kind: 'text', text: 'I could not write it.' },
  );
}

function toolResult(requestIndex: number, id: string): string {
  const m = fake
    .chatBodies()
    [requestIndex].messages.find((x: { role: string; tool_call_id?: string }) => x.tool_call_id === id);
  return unwrap(m.content);
}

describe('hooks from config.yaml', () => {
  it('a before_tool hook that exits 2 blocks file_write: nothing written, the model and the person told', async () => {
    const hook = js("process.stderr.write('plans go to the wiki, not to files'); process.exit(2)");
    config(`hooks:\n  before_tool:\n    - command: ${JSON.stringify(hook)}\n      match: file_write\n`);
    writeCall();
    const r = await e.zhi(['-c', 'write the plan', '--auto']);
    expect(r.code).toBe(0);
    expect(existsSync(join(e.cwd, 'zhi-output', 'plan.md'))).toBe(false);
    expect(toolResult(1, 'c_w')).toMatch(
      /before_tool hook in the person's config stopped this call: plans go to the wiki/,
    );
    expect(r.stderr).toContain(
      'Your before_tool hook stopped file_write. The hook said: plans go to the wiki, not to files',
    );
  });

  it('a JSON block works too, in Chinese the person sees it in Chinese', async () => {
    const hook = js('console.log(JSON.stringify({decision:"block",reason:"不要写文件"}))');
    config(`language: zh\nhooks:\n  before_tool:\n    - command: ${JSON.stringify(hook)}\n`);
    writeCall();
    const r = await e.zhi(['-c', 'write the plan', '--auto']);
    expect(existsSync(join(e.cwd, 'zhi-output', 'plan.md'))).toBe(false);
    expect(r.stderr).toContain('你的 before_tool 钩子阻止了 file_write。钩子的原话：不要写文件');
  });

  it('a hook for another tool lets the write through; the other events are heard with their JSON', async () => {
    const log = join(e.cwd, 'events.jsonl');
    const record = js(
      `let s='';process.stdin.on('data',d=>s+=d).on('end',()=>require('fs').appendFileSync(${JSON.stringify(log)},s+'\\n'))`,
    );
    const q = JSON.stringify(record);
    config(
      [
        'hooks:',
        '  before_tool:',
        `    - command: ${JSON.stringify(js('process.exit(2)'))}`,
        '      match: [shell]',
        `    - command: ${q}`,
        `  after_tool: [${q}]`,
        `  after_turn: [${q}]`,
        `  session_start: [${q}]`,
        `  session_end: [${q}]`,
        '  before_lunch: [x]',
        '',
      ].join('\n'),
    );
    writeCall();
    const r = await e.zhi(['-c', 'write the plan', '--auto']);
    expect(r.code).toBe(0);
    expect(readFileSync(join(e.cwd, 'zhi-output', 'plan.md'), 'utf8')).toBe('the plan\n');
    expect(r.stderr).toMatch(/A hook in .*config\.yaml was left out \(before_lunch\)/);
    const events = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events.map((x) => x.event)).toEqual([
      'session_start',
      'before_tool',
      'after_tool',
      'after_turn',
      'session_end',
    ]);
    expect(events[1]).toMatchObject({ tool: 'file_write', arguments: { path: 'plan.md' }, cwd: e.cwd });
    expect(events[2]).toMatchObject({ tool: 'file_write', ok: true });
    expect(events[3]).toMatchObject({ answer: 'I could not write it.' });
  });
});
