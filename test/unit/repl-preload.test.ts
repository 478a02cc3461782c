import { PassThrough, Writable } from 'node:stream';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ChatSession } from '../../src/agent/chat.js';
import { newConversation } from '../../src/agent/conversation.js';
import type { AppContext } from '../../src/cli/context.js';
import { History } from '../../src/cli/repl/history.js';
import { Repl } from '../../src/cli/repl/repl.js';
import { PLATFORMS } from '../../src/llm/platforms.js';
import { UsageTracker } from '../../src/llm/usage.js';
import { setLanguage } from '../../src/support/i18n/index.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { terminalContext } from '../helpers/app-context.js';
import { ScriptedLlm } from '../helpers/fake-llm.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

let dir: string;
beforeEach(() => {
  dir = tempDir();
  setLanguage('en');
});
afterEach(() => cleanup(dir));

async function until(check: () => boolean, what: string, ms = 3000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

it('shows the prompt before the chat is made, and the chat model in the status line once it is', async () => {
  const input = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => input });
  let text = '';
  const output = Object.assign(
    new Writable({
      write(chunk, _enc, cb) {
        text += chunk.toString();
        cb();
      },
    }),
    { isTTY: true, columns: 100, rows: 24 },
  );
  const platform = PLATFORMS.bigmodel;
  const ctx: AppContext = terminalContext(dir, { args: ['--continue'], file: { status_line: 'on' } });
  let release: () => void = () => undefined;
  const made = new Promise<void>((r) => {
    release = r;
  });
  const repl = new Repl({
    ctx,
    // The saved conversation ran on another model than the configured default.
    chat: async (prompter) => {
      await made;
      const chat = new ChatSession(
        {
          llm: new ScriptedLlm([]),
          tools: new ToolRegistry(),
          prompter,
          usage: new UsageTracker(platform),
          cwd: dir,
          outputDir: ctx.outputDir,
        },
        newConversation({
          model: 'glm-4.7',
          thinking: true,
          mode: 'approve',
          maxTurns: 8,
          systemPrompt: 'system',
        }),
      );
      return { chat };
    },
    commands: [],
    history: await History.load(ctx.paths.historyFile),
    io: { input, output, stdout: output },
    animate: false,
  });
  repl.preload();
  const done = repl.run();
  await until(() => text.includes('zhi [approve]> '), 'the prompt');
  expect(text).toContain(ctx.config.defaultModel); // the status line before the chat exists
  expect(text).not.toContain('glm-4.7');
  release();
  await until(() => text.includes('glm-4.7'), 'the status line of the chat');
  input.write('\x04');
  await done;
});
