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

/** A session's first exchange, recorded; `sync` as OpenSessionOptions takes it. */
function record(sync?: boolean): string {
  const rec = openTestSession(dir, sync === undefined ? {} : { sync });
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

  it('never syncs a throw-away session (the REPL warm-up), which is written all the same', () => {
    const text = record(false);
    expect(synced.count).toBe(0);
    expect(
      text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l).type),
    ).toEqual(['session', 'message', 'title', 'message', 'end']);
  });
});
