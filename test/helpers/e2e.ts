/**
 * One set-up for an end-to-end test file: a fake Zhipu API for the file, and for each test a
 * fresh home (ZHI_HOME) and working folder, removed afterwards along with any pty left open
 * (zhi's log is printed first when a terminal showed "went wrong", so the failure can be read).
 */
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach } from 'vitest';
import type { FakeZhipu } from '../fake-zhipu/server.js';
import { useFakeZhipu } from './fake.js';
import { type PtyOptions, PtySession } from './pty.js';
import { cleanup, type RunOptions, type RunResult, runZhi, tempDir } from './zhi.js';

export interface E2E {
  readonly fake: FakeZhipu;
  /** ZHI_HOME of the current test. */
  readonly home: string;
  /** The working folder of the current test (symlinks resolved, as zhi reports it). */
  readonly cwd: string;
  /** Run the built zhi in `cwd` with `home`, against the fake API. */
  zhi(args: string[], o?: Omit<RunOptions, 'args'>): Promise<RunResult>;
  /** Open zhi in a pseudo-terminal in `cwd`; it is killed when the test ends. */
  pty(o?: Partial<PtyOptions>): PtySession;
}

export function useE2E(): E2E {
  const fake = useFakeZhipu();
  let home = '';
  let cwd = '';
  const open: PtySession[] = [];
  beforeEach(() => {
    fake.restore();
    home = tempDir('zhi-home-');
    cwd = realpathSync(tempDir('zhi-work-'));
    return async () => {
      // Wait for each terminal's zhi to be gone: one still running could send a late request
      // that takes the next test's scripted reply.
      for (const s of open.splice(0)) {
        if (s.text().includes('went wrong')) printLogs(home);
        s.kill();
        await s.exited().catch(() => s.pty.kill('SIGKILL'));
      }
      cleanup(home, cwd);
    };
  });
  return {
    fake,
    get home() {
      return home;
    },
    get cwd() {
      return cwd;
    },
    zhi: (args, o = {}) => runZhi({ baseUrl: fake.baseUrl, home, cwd, ...o, args }),
    pty: (o = {}) => {
      const s = new PtySession({ home, cwd, baseUrl: fake.baseUrl, ...o });
      open.push(s);
      return s;
    },
  };
}

/** zhi's log files, on stderr: the only trace of an unexpected error once the home is removed. */
function printLogs(home: string): void {
  const logs = join(home, 'logs');
  if (!existsSync(logs)) return;
  for (const f of readdirSync(logs)) console.error(readFileSync(join(logs, f), 'utf8'));
}
