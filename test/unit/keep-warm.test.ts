import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BuiltChat } from '../../src/cli/chat.js';
import { KeepWarm } from '../../src/cli/repl/keep-warm.js';
import { TypingWork } from '../../src/cli/repl/lazy.js';

describe('KeepWarm', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function warm(ok = true) {
    let connects = 0;
    const k = new KeepWarm(
      async () => {
        connects += 1;
        return ok;
      },
      () => Date.now(),
    );
    return { k, connects: () => connects };
  }

  it('opens a connection shortly after a key, and again only every 2 s while keys are pressed', async () => {
    const { k, connects } = warm();
    k.typed();
    await vi.advanceTimersByTimeAsync(60);
    expect(connects()).toBe(1);
    for (let i = 0; i < 10; i++) {
      k.typed();
      await vi.advanceTimersByTimeAsync(300); // a key every 300 ms for 3 s
    }
    expect(connects()).toBe(2);
    await vi.advanceTimersByTimeAsync(30_000); // nobody types: nothing more
    expect(connects()).toBe(2);
  });

  it('a whole message at once (a paste, a script) is sent before the refresh starts: no race', async () => {
    const { k, connects } = warm();
    k.typed();
    k.used(); // Enter came with the keys
    await vi.advanceTimersByTimeAsync(5000);
    expect(connects()).toBe(0);
  });

  it('after a message the connection counts as fresh for 2 s', async () => {
    const { k, connects } = warm();
    k.used();
    k.typed();
    await vi.advanceTimersByTimeAsync(1000);
    expect(connects()).toBe(0);
    await vi.advanceTimersByTimeAsync(1500);
    k.typed();
    await vi.advanceTimersByTimeAsync(100);
    expect(connects()).toBe(1);
  });

  it('after a failure (offline) it waits a minute before trying again', async () => {
    const { k, connects } = warm(false);
    k.typed();
    await vi.advanceTimersByTimeAsync(100);
    expect(connects()).toBe(1);
    for (let i = 0; i < 50; i++) {
      k.typed();
      await vi.advanceTimersByTimeAsync(1000);
    }
    expect(connects()).toBe(1);
    await vi.advanceTimersByTimeAsync(15_000);
    k.typed();
    await vi.advanceTimersByTimeAsync(100);
    expect(connects()).toBe(2);
  });
});

describe('TypingWork: what the first message needs, made while it is typed', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function work() {
    const calls: string[] = [];
    const chat = {
      messages: [],
      deps: { tools: { schemas: () => [] } },
      session: {
        compactor: { status: () => calls.push('weigh') },
        recorder: { prepare: () => calls.push('session file') },
      },
    };
    const built = {
      chat,
      client: { http: { preconnect: async () => calls.push('connect') > 0 } },
    } as unknown as BuiltChat;
    const w = new TypingWork({
      loadChat: async () => {
        calls.push('chat');
        return built;
      },
      loadMore: async () => calls.push('send path'),
      redraw: () => calls.push('redraw'),
    });
    return { w, calls };
  }

  it('does nothing while nobody types', async () => {
    const { calls } = work();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toEqual([]);
  });

  it('on the first keys: the chat, its session file, the send path and a connection, prepared once', async () => {
    const { w, calls } = work();
    w.typed();
    await vi.advanceTimersByTimeAsync(60);
    expect(calls.sort()).toEqual(['chat', 'connect', 'redraw', 'send path', 'session file', 'weigh']);
    for (let i = 0; i < 10; i++) {
      w.typed();
      await vi.advanceTimersByTimeAsync(300);
    }
    // Typing on only keeps the connection fresh.
    expect(calls.filter((c) => c !== 'connect' && c !== 'chat').sort()).toEqual([
      'redraw',
      'send path',
      'session file',
      'weigh',
    ]);
  });

  it('a message arriving with its keys (a paste) is sent before anything starts', async () => {
    const { w, calls } = work();
    w.typed();
    w.sent();
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls).toEqual([]);
  });
});
