/**
 * The agent loop end to end: the built zhi against the fake API, with the model misbehaving the
 * ways real models do. Each error reaches the model as a tool result and the run goes on.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { unwrap } from '../helpers/untrusted.js';

const t = useE2E();
const fake = t.fake;

/** The tool results the model received in request `n` (0-based), by tool call id. */
function resultsIn(n: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of fake.chatBodies()[n].messages)
    if (m.role === 'tool') out[m.tool_call_id] = unwrap(m.content);
  return out;
}

describe('agent loop, end to end', () => {
  it('invalid JSON, wrong types, an unknown tool and a failing tool become error results; the run goes on', async () => {
    fake.script(
      {
        kind: 'tools',
        calls: [
          { id: 'bad_json', name: 'file_read', arguments: '{"path": "notes.md"' },
          { id: 'bad_type', name: 'file_read', arguments: { path: 42 } },
          { id: 'unknown', name: 'delete_everything', arguments: {} },
          { id: 'fails', name: 'file_read', arguments: { path: 'missing.md' } },
        ],
      },
      { kind: 'text', text: 'I could not read anything.' },
    );
    const r = await t.zhi(['-c', 'read notes']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('I could not read anything.\n');
    const res = resultsIn(1);
    expect(res.bad_json).toMatch(/^Error: The arguments for file_read are not valid JSON/);
    expect(res.bad_type).toMatch(/^Error: The arguments for file_read do not match its schema: path: /);
    expect(res.unknown).toMatch(
      /^Error: There is no tool called "delete_everything"\. Available tools: .*file_read/,
    );
    expect(res.fails).toMatch(/^Error: .*missing\.md/);
    // The conversation the API got back is valid: every call has exactly one result.
    expect(Object.keys(res).sort()).toEqual(['bad_json', 'bad_type', 'fails', 'unknown']);
    expect(r.stderr).toMatch(/\[4\/4\] Read .*✗/);
  });

  it('stops at the turn limit with exit code 4 and says what to do', async () => {
    writeFileSync(join(t.cwd, 'a.md'), 'A');
    mkdirSync(join(t.home), { recursive: true });
    writeFileSync(join(t.home, 'config.yaml'), 'max_turns: 2\n');
    for (let i = 0; i < 3; i++)
      fake.script({ kind: 'tools', calls: [{ name: 'file_read', arguments: { path: 'a.md' } }] });
    const r = await t.zhi(['-c', 'loop forever']);
    expect(r.code).toBe(4);
    expect(fake.chatBodies()).toHaveLength(2);
    expect(r.stderr).toContain('Stopped after 2 turns without a final answer.');
    expect(r.stderr).toContain('max_turns');
  });

  it('runs several read-only calls of one response and returns their results in the model order', async () => {
    for (const name of ['one', 'two', 'three'])
      writeFileSync(join(t.cwd, `${name}.txt`), `content of ${name}`);
    fake.script(
      {
        kind: 'tools',
        calls: ['three', 'one', 'two'].map((n) => ({
          id: `c_${n}`,
          name: 'file_read',
          arguments: { path: `${n}.txt` },
        })),
      },
      { kind: 'text', text: 'read all three' },
    );
    const r = await t.zhi(['-c', 'read them']);
    expect(r.code).toBe(0);
    const tools = fake.chatBodies()[1].messages.filter((m: { role: string }) => m.role === 'tool');
    expect(tools.map((m: { tool_call_id: string }) => m.tool_call_id)).toEqual(['c_three', 'c_one', 'c_two']);
    expect(tools.map((m: { content: string }) => m.content)).toEqual([
      expect.stringContaining('content of three'),
      expect.stringContaining('content of one'),
      expect.stringContaining('content of two'),
    ]);
  });

  it('sends reasoning back with the tool results of the same turn (preserved thinking)', async () => {
    writeFileSync(join(t.cwd, 'a.md'), 'A');
    fake.script(
      {
        kind: 'tools',
        reasoning: 'I should read a.md first.',
        calls: [{ name: 'file_read', arguments: { path: 'a.md' } }],
      },
      { kind: 'text', text: 'done' },
    );
    await t.zhi(['-c', 'go']);
    const assistant = fake.chatBodies()[1].messages.find((m: { role: string }) => m.role === 'assistant');
    expect(assistant.reasoning_content).toBe('I should read a.md first.');
    expect(assistant.tool_calls).toHaveLength(1);
  });
});
