import { Socket } from 'node:net';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ChatSession } from '../../src/agent/chat.js';
import { newConversation } from '../../src/agent/conversation.js';
import { warmUp } from '../../src/cli/repl/warm-up.js';
import { PLATFORMS } from '../../src/llm/platforms.js';
import type { LlmClient } from '../../src/llm/types.js';
import { UsageTracker } from '../../src/llm/usage.js';
import { ToolRegistry } from '../../src/tools/registry.js';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

// Node's fetch makes its dispatcher on its first call; in the REPL that is the connection kept
// ready while the person types, which starts before the warm-up.
beforeAll(async () => {
  await fetch('data:,x');
});

/** The person's chat: its client must never be asked anything by the warm-up. */
function personsChat() {
  const stream = vi.fn(() => {
    throw new Error('the warm-up used the person’s client');
  });
  const usage = new UsageTracker(PLATFORMS.bigmodel);
  const chat = new ChatSession(
    {
      llm: { stream } as unknown as LlmClient,
      tools: new ToolRegistry(),
      prompter: { interactive: true, confirmTool: vi.fn(), ask: vi.fn() },
      usage,
      cwd: process.cwd(),
      outputDir: process.cwd(),
    },
    newConversation({
      model: 'glm-5',
      thinking: true,
      mode: 'approve',
      maxTurns: 30,
      systemPrompt: 'system',
    }),
  );
  return { chat, stream, usage };
}

describe('the first message warm-up (issue 44)', () => {
  it('runs a sample message the whole way through a conversation of its own', async () => {
    const { chat } = personsChat();
    const result = await warmUp(chat);
    // The sample answer was read as a stream and drawn: the run ended with the whole answer.
    expect(result.stopReason).toBe('answer');
    expect(result.text).toContain('| a | b |');
    expect(result.text).toContain('const x = 1;');
  });

  it('writes nothing, sends nothing and leaves the person’s conversation and usage as they were', async () => {
    const out = vi.spyOn(process.stdout, 'write');
    const err = vi.spyOn(process.stderr, 'write');
    const fetch = vi.spyOn(globalThis, 'fetch');
    const connect = vi.spyOn(Socket.prototype, 'connect');
    const { chat, stream, usage } = personsChat();
    await warmUp(chat);
    expect(out).not.toHaveBeenCalled();
    expect(err).not.toHaveBeenCalled();
    // The sample request goes through Node's fetch to a socket in memory: no connection is made.
    expect(connect).not.toHaveBeenCalled();
    expect(fetch).toHaveBeenCalledOnce();
    expect(String(fetch.mock.calls[0]![0])).toBe('http://zhi.invalid/api/chat/completions');
    expect(stream).not.toHaveBeenCalled();
    expect(chat.messages).toEqual([{ role: 'system', content: 'system' }]);
    expect(usage.total().calls).toBe(0);
  });

  it('behind a proxy, answers the sample from a Response made in memory, still sending nothing', async () => {
    vi.stubEnv('HTTPS_PROXY', 'http://proxy.example:8080');
    const fetch = vi.spyOn(globalThis, 'fetch');
    const connect = vi.spyOn(Socket.prototype, 'connect');
    const { chat } = personsChat();
    const result = await warmUp(chat);
    expect(result.stopReason).toBe('answer');
    expect(result.text).toContain('| a | b |');
    expect(fetch).not.toHaveBeenCalled();
    expect(connect).not.toHaveBeenCalled();
  });
});
