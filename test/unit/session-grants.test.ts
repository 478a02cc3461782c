/** A session's "always" answers are kept by kind: a shell command's with the shell, an MCP tool's with MCP. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ApprovalAnswer, type Prompter, runAgent, type ToolApproval } from '../../src/agent/loop.js';
import { newSessionGrants, type SessionGrants } from '../../src/agent/permissions.js';
import { PLATFORMS } from '../../src/llm/platforms.js';
import type { Message } from '../../src/llm/types.js';
import { UsageTracker } from '../../src/llm/usage.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { shellStandingKey, toolStandingKey } from '../../src/tools/standing.js';
import { ALWAYS_STANDING, type AnyTool } from '../../src/tools/types.js';
import { ScriptedLlm, type Turn } from '../helpers/fake-llm.js';

/** A tool that offers "always" for its call, as the shell does for a command and MCP for a tool. */
const offering = (name: string, key: string, mcp: boolean): AnyTool => ({
  name,
  description: name,
  schema: z.object({}),
  kind: mcp ? 'mcp' : 'shell',
  assess: () => ({
    standing: { key, label: 'always', ...(mcp ? { mcp: { server: 'files', tool: 'write' } } : {}) },
  }),
  execute: async () => 'ok',
});

const COMMAND = shellStandingKey(['git', 'status'], false);
const MCP_TOOL = toolStandingKey('files__write');

async function run(grants: SessionGrants, answers: ApprovalAnswer[], turns: Turn[]): Promise<ToolApproval[]> {
  const asked: ToolApproval[] = [];
  const prompter: Prompter = {
    interactive: true,
    confirmTool: async (req) => {
      asked.push(req);
      return answers.shift() ?? false;
    },
    ask: async () => false,
  };
  const messages: Message[] = [
    { role: 'system', content: 'sys' },
    { role: 'user', content: 'go' },
  ];
  const gen = runAgent(
    messages,
    {
      llm: new ScriptedLlm(turns),
      tools: new ToolRegistry([offering('cmd', COMMAND, false), offering('files__write', MCP_TOOL, true)]),
      prompter,
      usage: new UsageTracker(PLATFORMS.bigmodel),
      cwd: '/tmp',
      outputDir: '/tmp/out',
      grants,
    },
    { model: 'glm-5', thinking: false, maxTurns: 10, mode: 'approve' },
  );
  while (!(await gen.next()).done) {}
  return asked;
}

const twice = (name: string): Turn[] => [
  { calls: [{ name, args: {} }] },
  { calls: [{ name, args: {} }] },
  { text: 'done' },
];

describe('session grants by kind', () => {
  it('keeps a command\'s "always" with the shell grants, and it covers the next call', async () => {
    const grants = newSessionGrants();
    const asked = await run(grants, [{ grants: [ALWAYS_STANDING] }], twice('cmd'));
    expect(asked).toHaveLength(1);
    expect([...grants.shell]).toEqual([COMMAND]);
    expect([...grants.mcp]).toEqual([]);
  });

  it('keeps an MCP tool\'s "always" with the MCP grants', async () => {
    const grants = newSessionGrants();
    const asked = await run(grants, [{ grants: [ALWAYS_STANDING] }], twice('files__write'));
    expect(asked).toHaveLength(1);
    expect([...grants.mcp]).toEqual([MCP_TOOL]);
    expect([...grants.shell]).toEqual([]);
  });

  it('a key granted for one kind covers no call of the other', async () => {
    const grants = newSessionGrants();
    grants.mcp.add(COMMAND);
    const asked = await run(grants, [true], [{ calls: [{ name: 'cmd', args: {} }] }, { text: 'done' }]);
    expect(asked).toHaveLength(1);
  });
});
