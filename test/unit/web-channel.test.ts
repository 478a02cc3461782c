import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EventChannel, FLUSH_MS } from '../../src/cli/web/channel.js';

/** A response that records each write, and a request with the headers given. */
function tab(headers: Record<string, string> = {}) {
  const writes: string[] = [];
  const res = Object.assign(new EventEmitter(), {
    writableEnded: false,
    destroyed: false,
    writeHead: () => res,
    write: (text: string) => writes.push(text) > 0,
    end: () => {
      res.writableEnded = true;
    },
  });
  const req = Object.assign(new EventEmitter(), { headers });
  return { req: req as unknown as IncomingMessage, res: res as unknown as ServerResponse, writes };
}

const ids = (text: string) => [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));

describe('EventChannel', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes the deltas of one frame in one write, and the end of a run at once', () => {
    const channel = new EventChannel();
    const a = tab();
    channel.attach(a.req, a.res);
    a.writes.length = 0;
    channel.startRun('r1');
    for (let i = 0; i < 5; i++) channel.emit('run', { type: 'text_delta', text: `part ${i}` });
    expect(a.writes).toEqual([]);
    vi.advanceTimersByTime(FLUSH_MS);
    expect(a.writes).toHaveLength(1);
    expect(ids(a.writes[0]!)).toEqual([1, 2, 3, 4, 5, 6]);
    channel.emit('run', { type: 'text_delta', text: 'last' });
    channel.emit('run_end', { runId: 'r1' });
    expect(a.writes).toHaveLength(2);
    expect(a.writes[1]).toContain('event: run_end');
  });

  it('a tab that opens mid-frame gets every event once, in order', () => {
    const channel = new EventChannel();
    const a = tab();
    channel.attach(a.req, a.res);
    channel.startRun('r1');
    channel.emit('run', { type: 'text_delta', text: 'one' });
    const b = tab();
    channel.attach(b.req, b.res);
    channel.emit('run', { type: 'text_delta', text: 'two' });
    vi.advanceTimersByTime(FLUSH_MS);
    expect(ids(a.writes.join(''))).toEqual([1, 2, 3]);
    expect(ids(b.writes.join(''))).toEqual([1, 2, 3]);
  });

  it('a reconnect with Last-Event-ID gets only what came after it', () => {
    const channel = new EventChannel();
    channel.startRun('r1');
    channel.emit('run', { type: 'text_delta', text: 'one' });
    channel.emit('run', { type: 'text_delta', text: 'two' });
    const b = tab({ 'last-event-id': '2' });
    channel.attach(b.req, b.res);
    expect(ids(b.writes.join(''))).toEqual([3]);
  });

  it('closing writes what is pending before the streams end', () => {
    const channel = new EventChannel();
    const a = tab();
    channel.attach(a.req, a.res);
    channel.emit('note', { text: 'bye' });
    channel.close();
    expect(a.writes.join('')).toContain('event: note');
  });
});
