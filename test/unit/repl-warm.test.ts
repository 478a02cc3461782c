import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChatSession } from '../../src/agent/chat.js';
import type { Prompter } from '../../src/agent/loop.js';
import type { AppContext } from '../../src/cli/context.js';
import { warmEditor, warmTurn } from '../../src/cli/repl/warm.js';
import { sessionWiring } from '../../src/cli/sessions/attach.js';
import { UsageTracker } from '../../src/llm/usage.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { terminalContext } from '../helpers/app-context.js';
import { ScriptedLlm } from '../helpers/fake-llm.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => cleanup(dir));

function context(): AppContext {
  return terminalContext(dir, { color: true, env: { TERM: 'xterm-256color' } });
}

/** Everything written to process.stdout and stderr while `fn` runs. */
async function terminalDuring(fn: () => Promise<void>): Promise<string> {
  let written = '';
  const out = process.stdout.write;
  const err = process.stderr.write;
  const capture = ((s: string) => {
    written += String(s);
    return true;
  }) as typeof process.stdout.write;
  process.stdout.write = capture;
  process.stderr.write = capture;
  try {
    await fn();
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
  return written;
}

const NO_QUESTIONS: Prompter = {
  interactive: false,
  confirmTool: async () => false,
  ask: async () => false,
};

describe('REPL idle warm-up', () => {
  it('runs a made-up turn that leaves the conversation, its usage, the model and the terminal alone', async () => {
    const ctx = context();
    const llm = new ScriptedLlm([]);
    const usage = new UsageTracker(ctx.platform);
    const tools = new ToolRegistry();
    const settings = {
      model: 'glm-5',
      thinking: true,
      mode: 'approve' as const,
      maxTurns: 8,
      systemPrompt: 'system',
    };
    const session = sessionWiring(ctx, { kind: 'repl', llm, usage, tools, ...settings });
    const chat = new ChatSession(
      { llm, tools, prompter: NO_QUESTIONS, usage, cwd: dir, outputDir: ctx.outputDir },
      settings,
      { session },
    );
    const written = await terminalDuring(() => warmTurn(ctx, chat));
    expect(written).toBe('');
    expect(chat.messages).toEqual([{ role: 'system', content: 'system' }]);
    expect(usage.total().totalTokens).toBe(0);
    expect(llm.requests).toHaveLength(0);
    // No session file, no ledger line: the file's first lines wait for the first message.
    const sessions = ctx.paths.sessionsDir;
    expect(existsSync(sessions) ? readdirSync(sessions).filter((f) => f.endsWith('.jsonl')) : []).toEqual([]);
    expect(existsSync(ctx.paths.usageLedger)).toBe(false);
    // The first event writes the prepared header, dated as the session's id is.
    chat.consume({ type: 'user', message: { role: 'user', content: 'hi' } });
    const lines = readFileSync(session.recorder.file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.type)).toEqual(['session', 'system', 'message', 'title']);
    expect(lines[0].id).toBe(session.recorder.id);
    session.recorder.close();
  });

  it('types a message into an editor of its own and finishes, drawing nothing on the terminal', async () => {
    let drawn = 0;
    const written = await terminalDuring(() =>
      warmEditor(
        () => 'zhi> ',
        () => {
          drawn += 1;
          return 'glm-5 · approve';
        },
      ),
    );
    expect(drawn).toBeGreaterThan(0);
    expect(written).toBe('');
  });
});
