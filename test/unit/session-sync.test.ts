import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emptyResult } from '../../src/agent/events.js';
import { openTestSession } from '../helpers/session.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

// Counts the syncs the session file asks for (the rest of node:fs is the real one).
const synced = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:fs', async (real) => {
  const fs = await real<typeof import('node:fs')>();
  return {
    ...fs,
    fdatasyncSync: (fd: number) => {
      synced.count += 1;
      fs.fdatasyncSync(fd);
    },
  };
});

let dir: string;
beforeEach(() => {
  dir = tempDir();
  synced.count = 0;
});
afterEach(() => cleanup(dir));

/** A session's first exchange, recorded. */
function record(): string {
  const rec = openTestSession(dir);
  rec.consume({ type: 'user', message: { role: 'user', content: 'hello' } });
  rec.consume({ type: 'message', message: { role: 'assistant', content: 'hi' } });
  rec.consume({ type: 'done', result: emptyResult() });
  rec.close();
  return readFileSync(rec.file, 'utf8');
}

describe('session file syncing', () => {
  it('syncs the question and the end of each run to disk', () => {
    record();
    expect(synced.count).toBe(2);
  });
});
