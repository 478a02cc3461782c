import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatSession } from '../../src/agent/chat.js';
import { warmUp } from '../../src/cli/repl/warm-up.js';
import { PLATFORMS } from '../../src/llm/platforms.js';
import { UsageTracker } from '../../src/llm/usage.js';

afterEach(() => vi.restoreAllMocks());

describe('the first message warm-up (issue 44)', () => {
  it('runs the renderer and the stream reader on samples, writing nothing and counting nothing', async () => {
    const out = vi.spyOn(process.stdout, 'write');
    const err = vi.spyOn(process.stderr, 'write');
    const usage = new UsageTracker(PLATFORMS.bigmodel);
    const chat = {
      deps: { cwd: process.cwd(), usage },
      settings: { model: 'glm-5' },
    } as unknown as ChatSession;
    await warmUp(chat);
    expect(out).not.toHaveBeenCalled();
    expect(err).not.toHaveBeenCalled();
    expect(usage.total().calls).toBe(0);
  });
});
