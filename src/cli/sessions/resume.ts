import { findSession, latestSession, listSessions } from '../../agent/sessions/listing.js';
import { type LoadedSession, loadSession, type SessionSummary } from '../../agent/sessions/store.js';
import { quoted, ZhiError } from '../../support/errors.js';
import { t } from '../../support/i18n/index.js';
import { terminalAsker } from '../ask.js';
import type { AppContext } from '../context.js';
import { formatWarning } from '../render/error.js';
import type { Resumed } from './attach.js';

/**
 * The saved conversation that --continue or --resume [id] asks for, or undefined for a new one.
 * --continue with nothing to continue starts a new conversation (and says so); an unknown id is
 * a usage error; --resume without an id shows a picker in a terminal and is an error elsewhere.
 */
export async function resumeFromFlags(ctx: AppContext): Promise<LoadedSession | undefined> {
  const { resume, continue: cont } = ctx.args.flags;
  const dir = ctx.paths.sessionsDir;
  if (typeof resume === 'string') return load((await resolveSessionArg(dir, resume)).file);
  if (resume === true) {
    if (!ctx.stdinIsTTY) {
      throw new ZhiError({
        kind: 'usage',
        what: { key: 'sessions.err.needId' },
        why: { key: 'sessions.err.needIdWhy' },
        tries: [{ key: 'sessions.try.list' }, { key: 'sessions.try.continue' }],
      });
    }
    const picked = await pickSession(ctx);
    return picked ? load(picked.file) : undefined;
  }
  if (cont) {
    const latest = await latestSession(dir, ctx.cwd);
    if (!latest) {
      process.stderr.write(formatWarning(t('sessions.continue.none'), ctx.err));
      return undefined;
    }
    return load(latest.file);
  }
  return undefined;
}

/**
 * The REPL's --continue / --resume: the saved conversation found and announced before the prompt
 * shows, so the tools and the chat can load after it (createChat takes it as `resumed`).
 */
export async function findResumed(ctx: AppContext): Promise<Resumed> {
  const loaded = await resumeFromFlags(ctx);
  if (loaded) process.stderr.write((await import('./notes.js')).resumeNote(loaded, ctx, true));
  return { loaded };
}

/** Find a session by id (or a unique part of one); a clear error otherwise. */
export async function resolveSessionArg(dir: string, query: string): Promise<SessionSummary> {
  const r = await findSession(dir, query);
  if ('found' in r) return r.found;
  if ('ambiguous' in r) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'sessions.err.ambiguous', params: { query } },
      why: {
        key: 'sessions.err.ambiguousWhy',
        params: {
          ids: r.ambiguous
            .slice(0, 8)
            .map((s) => s.id)
            .join(', '),
        },
      },
      tries: [{ key: 'sessions.try.fullId' }],
    });
  }
  throw new ZhiError({
    kind: 'usage',
    what: { key: 'sessions.err.notFound', params: { query } },
    tries: [{ key: 'sessions.try.list' }],
  });
}

export async function load(file: string): Promise<LoadedSession> {
  let loaded: LoadedSession | undefined;
  try {
    loaded = await loadSession(file);
  } catch (err) {
    throw new ZhiError({
      kind: 'io',
      what: { key: 'sessions.err.unreadable', params: { file } },
      why: quoted(err instanceof Error ? err.message : String(err), 'cli.by.system'),
      tries: [{ key: 'sessions.try.list' }],
      cause: err,
    });
  }
  if (!loaded) {
    throw new ZhiError({
      kind: 'io',
      what: { key: 'sessions.err.unreadable', params: { file } },
      why: { key: 'sessions.err.noHeader' },
      tries: [{ key: 'sessions.try.list' }],
    });
  }
  return loaded;
}

/** A terminal picker over recent conversations (this folder's first). Undefined when cancelled. */
async function pickSession(ctx: AppContext): Promise<SessionSummary | undefined> {
  const all = await listSessions(ctx.paths.sessionsDir);
  if (!all.length) {
    process.stderr.write(formatWarning(t('sessions.none'), ctx.err));
    return undefined;
  }
  const here = all.filter((s) => s.cwd === ctx.cwd);
  const ordered = [...here, ...all.filter((s) => s.cwd !== ctx.cwd)].slice(0, 30);
  // The listing's formatting is loaded for the picker only, not --continue.
  const { sessionChoiceLabel } = await import('./list.js');
  const picked = await terminalAsker(ctx.interrupt).choose(
    t('sessions.pick'),
    ordered.map((s) => ({ label: sessionChoiceLabel(s, ctx.cwd), value: s })),
    { pageSize: 12 },
  );
  if (!picked) throw new ZhiError({ kind: 'aborted', what: { key: 'cli.interrupted' } });
  return picked;
}
