/**
 * One run per folder: a lock beside the run record (`<record>.lock`: pid, host, start time),
 * created exclusively, its time touched every 20 s while the run goes on. A second zhi on the
 * same skill and folder says who holds it and stops (or waits, `--wait`). A lock is stale when
 * its process is gone (same host) or it has not been touched for 2 minutes (a killed machine, a
 * pid reused); a stale lock is taken over by renaming it away and checking that what was renamed
 * is still the stale lock (two takers at once: one wins, the other sees the winner's lock).
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, open, readFile, rename, rm, stat, utimes } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { ZhiError } from '../../support/errors.js';
import { processAlive } from '../../support/process-alive.js';
import { wait } from './pool.js';

export interface LockHolder {
  pid: number;
  host: string;
  startedAt: string;
}

const TOUCH_MS = 20_000;
const STALE_MS = 120_000;

export function lockPath(manifestPath: string): string {
  return `${manifestPath}.lock`;
}

async function readHolder(
  path: string,
): Promise<{ holder?: LockHolder; text: string; mtimeMs: number } | undefined> {
  const st = await stat(path).catch(() => undefined);
  if (!st) return undefined;
  const text = await readFile(path, 'utf8').catch(() => '');
  try {
    const h = JSON.parse(text) as LockHolder;
    if (typeof h.pid === 'number' && typeof h.host === 'string')
      return { holder: h, text, mtimeMs: st.mtimeMs };
  } catch {
    // half-written by a killed process: judged by its age alone
  }
  return { text, mtimeMs: st.mtimeMs };
}

function isStale(found: { holder?: LockHolder; mtimeMs: number }, now = Date.now()): boolean {
  if (now - found.mtimeMs > STALE_MS) return true;
  const h = found.holder;
  if (!h) return now - found.mtimeMs > TOUCH_MS;
  return h.host === hostname() && h.pid !== process.pid && !processAlive(h.pid);
}

/** Rename a stale lock away, if it is still the one judged stale; true when it is gone. */
async function takeOver(path: string, staleText: string): Promise<boolean> {
  const aside = `${path}.${randomBytes(4).toString('hex')}.stale`;
  try {
    await rename(path, aside);
  } catch {
    return true; // already gone: try to create it again
  }
  const moved = await readFile(aside, 'utf8').catch(() => '');
  if (moved === staleText) {
    await rm(aside, { force: true });
    return true;
  }
  // Another zhi took it over first: its lock goes back (unless yet another one exists by now).
  await link(aside, path).catch(() => undefined);
  await rm(aside, { force: true });
  return false;
}

export class RunLock {
  private timer: NodeJS.Timeout | undefined;

  private constructor(readonly path: string) {}

  /**
   * Take the lock of this run record. Held by a live run: a ZhiError naming it, or with `wait`,
   * wait for it (polling each second) until it is free or `signal` aborts.
   */
  static async take(
    manifestPath: string,
    o: { wait: boolean; signal: AbortSignal; folder: string },
  ): Promise<RunLock> {
    const path = lockPath(manifestPath);
    await mkdir(dirname(path), { recursive: true });
    const mine: LockHolder = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
    for (;;) {
      try {
        const handle = await open(path, 'wx', 0o644);
        await handle.writeFile(`${JSON.stringify(mine)}\n`);
        await handle.sync();
        await handle.close();
        const lock = new RunLock(path);
        lock.timer = setInterval(() => {
          const now = new Date();
          void utimes(path, now, now).catch(() => undefined);
        }, TOUCH_MS);
        lock.timer.unref();
        return lock;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const found = await readHolder(path);
      if (!found) continue;
      if (isStale(found)) {
        await takeOver(path, found.text);
        continue;
      }
      if (!o.wait || o.signal.aborted) throw heldError(found.holder, o.folder);
      await wait(1000, o.signal);
      if (o.signal.aborted) throw heldError(found.holder, o.folder);
    }
  }

  async release(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    const found = await readHolder(this.path);
    // Only our own lock is removed (a takeover after a long pause may have replaced it).
    if (found?.holder?.pid === process.pid && found.holder.host === hostname())
      await rm(this.path, { force: true });
  }
}

function heldError(h: LockHolder | undefined, folder: string): ZhiError {
  return new ZhiError({
    kind: 'usage',
    what: { key: 'runs.locked', params: { folder } },
    why: {
      key: 'runs.lockedBy',
      params: {
        pid: h?.pid ?? '?',
        host: h?.host ?? '?',
        since: (h?.startedAt ?? '').slice(0, 19).replace('T', ' '),
      },
    },
    tries: [{ key: 'runs.try.wait' }],
  });
}
