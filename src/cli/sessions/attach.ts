import type { ChatSession } from '../../agent/chat.js';
import type { LoadedSession } from '../../agent/sessions/store.js';
import { type ChatWiringParts, type SessionPlace, SessionWiring } from '../../agent/sessions/wiring.js';
import { t } from '../../support/i18n/index.js';
import { log } from '../../support/log.js';
import type { AppContext } from '../context.js';
import { formatWarning } from '../render/error.js';
import { chatModel } from '../settings.js';

/**
 * Where this invocation saves sessions (file + usage ledger) and what bounds a run, for a chat
 * and a skill run alike. A failure to save is said once, in the person's language; the run goes on.
 */
export function sessionPlace(ctx: AppContext): SessionPlace {
  let warned = false;
  return {
    sessionsDir: ctx.paths.sessionsDir,
    ledgerFile: ctx.paths.usageLedger,
    cwd: ctx.cwd,
    platform: ctx.platform,
    maxCostPerRun: ctx.config.maxCostPerRun,
    onError: (err) => {
      log().warn('session not saved', err);
      if (warned) return;
      warned = true;
      const reason = err instanceof Error ? err.message : String(err);
      process.stderr.write(formatWarning(t('sessions.saveFailed', { reason }), ctx.err));
    },
  };
}

/**
 * The session wiring of a chat in this invocation: saved as it happens, kept inside the context
 * window, large tool results spilled to the session folder, the run budget enforced. Built
 * before the chat and given to its constructor (see createChat).
 */
export function sessionWiring(ctx: AppContext, o: ChatWiringParts): SessionWiring {
  return new SessionWiring({
    ...sessionPlace(ctx),
    ...o,
    summaryModel: ctx.config.skillModel,
    compactThreshold: ctx.config.compactThreshold,
    // --model, else the session's model unless it is unknown here, else the configured one.
    resumedModel: (model) => {
      const choice = chatModel(ctx, { session: model });
      return choice.ok ? choice.model : ctx.config.defaultModel;
    },
  });
}

/** A saved conversation found before the chat was built (none: --continue had nothing to continue). */
export interface Resumed {
  loaded: LoadedSession | undefined;
}

/**
 * With --continue / --resume: load the saved conversation into the chat and keep recording into
 * its file. `found`: the REPL found (and announced) it already, before its prompt.
 */
export async function resumeFromFlags(ctx: AppContext, chat: ChatSession, found?: Resumed): Promise<void> {
  const { flags } = ctx.args;
  if (found) {
    if (found.loaded) chat.session?.switchTo(found.loaded);
    return;
  }
  if (!chat.session || !(flags.continue || flags.resume)) return;
  // Loaded only when asked for: the REPL starts without the listing code.
  const loaded = await (await import('./resume.js')).resumeFromFlags(ctx);
  if (!loaded) return;
  const { resumeNote } = await import('./notes.js');
  chat.session.switchTo(loaded);
  process.stderr.write(resumeNote(loaded, ctx, chat.session.kind === 'repl'));
}
