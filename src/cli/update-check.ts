/**
 * The update notifier. At a start in a terminal (not in CI, not with `update_check: false`), a
 * newer zhi found earlier is said, at most once a day, with how to update this kind of install;
 * and at most once a day the npm registry's dist-tags of `zhi` are fetched in the background
 * (a short timeout, never awaited: the start does not wait; a zhi that exits before the answer
 * tries again at its next start). What it finds is kept in zhi's data folder for the NEXT start.
 * `$ZHI_UPDATE_REGISTRY` points it at another registry (tests use a local one).
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { t } from '../support/i18n/index.js';
import { installKind } from '../support/install.js';
import { makeFolder } from '../support/make-folder.js';
import { visible } from '../support/sanitize.js';
import type { AppContext } from './context.js';

const FILE = 'update-check.json';
const DAY_MS = 24 * 60 * 60 * 1000;
const TIMEOUT_MS = 3000;
const DEFAULT_REGISTRY = 'https://registry.npmjs.org';

interface Checked {
  /** When the registry was last asked (ms), whatever came of it. */
  checkedAt?: number;
  /** The registry's `latest` then. */
  latest?: string;
  /** When a notice was last shown (ms). */
  shownAt?: number;
}

/**
 * Say a newer zhi found before, and look again in the background when a day has passed. `later`
 * holds the look back (the REPL: until the person types, so the idle prompt stays idle).
 */
export function checkForUpdate(
  ctx: AppContext,
  o: { now?: number; later?: (look: () => void) => void } = {},
): void {
  const now = o.now ?? Date.now();
  if (!wanted(ctx)) return;
  const file = join(ctx.paths.dataDir, FILE);
  const state = readState(file);
  const current = __ZHI_VERSION__;
  if (state.latest && isNewer(state.latest, current) && !(state.shownAt && now - state.shownAt < DAY_MS)) {
    process.stderr.write(`${ctx.err.dim(notice(state.latest, current))}\n`);
    state.shownAt = now;
    void save(file, state);
  }
  if (state.checkedAt && now - state.checkedAt < DAY_MS && state.checkedAt <= now) return;
  const look = () => void fetchLatest(ctx.env, file, { ...state, checkedAt: now });
  if (o.later) o.later(look);
  else look();
}

function wanted(ctx: AppContext): boolean {
  const ci = ctx.env.CI;
  const inCi = ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0';
  return ctx.config.updateCheck && ctx.stdinIsTTY && ctx.stderrIsTTY && !inCi;
}

function readState(file: string): Checked {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as Checked;
    return typeof data === 'object' && data !== null ? data : {};
  } catch {
    return {};
  }
}

async function save(file: string, state: Checked): Promise<void> {
  try {
    await makeFolder(join(file, '..'));
    await writeFile(file, JSON.stringify(state));
  } catch {
    // Best effort: a data folder that cannot be written only means asking again next time.
  }
}

async function fetchLatest(env: NodeJS.ProcessEnv, file: string, state: Checked): Promise<void> {
  const registry = (env.ZHI_UPDATE_REGISTRY || DEFAULT_REGISTRY).replace(/\/+$/, '');
  try {
    // The proxy-aware fetch, loaded only when a day has passed.
    const { apiFetch } = await import('../llm/http.js');
    const res = await apiFetch(`${registry}/-/package/zhi/dist-tags`, {
      signal: AbortSignal.timeout(TIMEOUT_MS),
      headers: { accept: 'application/json' },
    });
    const latest = res.ok ? ((await res.json()) as { latest?: unknown }).latest : undefined;
    // An answer, whatever it says, counts as the day's look (a zhi that exits first looks again).
    await save(file, typeof latest === 'string' && VERSION.test(latest) ? { ...state, latest } : state);
  } catch {
    // Offline, a proxy, a slow registry: nothing to say; the next start tries again.
  }
}

const VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

/** `a` is a later release than `b` (x.y.z; a pre-release is before its release). */
export function isNewer(a: string, b: string): boolean {
  const parse = (v: string) => {
    const [core = '', pre] = v.split('-', 2);
    return { nums: core.split('.').map((n) => Number.parseInt(n, 10) || 0), pre };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < 3; i++)
    if ((x.nums[i] ?? 0) !== (y.nums[i] ?? 0)) return (x.nums[i] ?? 0) > (y.nums[i] ?? 0);
  if (x.pre === y.pre) return false;
  if (x.pre === undefined) return true;
  if (y.pre === undefined) return false;
  return x.pre > y.pre;
}

/** The notice, with how to update this kind of install. */
export function notice(latest: string, current: string): string {
  const kind = installKind();
  const how =
    kind === 'exe'
      ? t('update.howExe', { path: visible(process.execPath) })
      : kind === 'source'
        ? t('update.howSource')
        : t('update.howNpm');
  return t('update.notice', { latest: visible(latest), current, how });
}
