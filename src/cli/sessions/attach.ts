import { RunBudget } from '../../agent/budget.js';
import type { ChatObserver, ChatSession } from '../../agent/chat.js';
import { Compactor } from '../../agent/compact.js';
import type { BeforeCallOutcome } from '../../agent/loop.js';
import type { SessionKind } from '../../agent/sessions/format.js';
import { openSession, type SessionRecorder } from '../../agent/sessions/recorder.js';
import type { LoadedSession } from '../../agent/sessions/store.js';
import { estimateToolsTokens } from '../../agent/tokens.js';
import { findModel } from '../../llm/models.js';
import type { Message } from '../../llm/types.js';
import { t } from '../../support/i18n/index.js';
import { log } from '../../support/log.js';
import type { AppContext } from '../context.js';
import { formatWarning } from '../render/error.js';

/** What tools and nested skill runs may reach through `ToolContext.services.session`. */
export interface SessionServices {
  /** The session id (the file is `<sessions dir>/<id>.jsonl`). */
  readonly id: string;
  /** An observer for a skill run nested in this conversation: its usage is recorded and ledgered. */
  nested(skill: string): ChatObserver;
}

/** Everything that makes a ChatSession persistent, bounded and accounted for. */
export interface SessionWiring {
  readonly recorder: SessionRecorder;
  readonly compactor: Compactor;
  readonly budget: RunBudget;
  readonly kind: SessionKind;
  /** Usage of the resumed session's earlier runs (from its file), for /usage. */
  readonly earlier: { tokens: number; cost: number } | undefined;
  /** Replace the conversation with a saved one and keep recording into that file (/resume). */
  switchTo(loaded: LoadedSession): void;
}

const wirings = new WeakMap<ChatSession, SessionWiring>();

/** The wiring of a chat made by createChat (for /resume, /compact, /usage). */
export function sessionOf(chat: ChatSession): SessionWiring | undefined {
  return wirings.get(chat);
}

/**
 * Make a chat persistent (session file + usage ledger), keep it inside the context window
 * (compaction), large tool results spilled to the session folder, and the run budget enforced.
 * With --continue / --resume the saved conversation is loaded first and recording continues in
 * its file. Called by createChat for every chat mode.
 */
export async function attachSession(
  ctx: AppContext,
  chat: ChatSession,
  kind: SessionKind,
): Promise<SessionWiring> {
  let warned = false;
  const onError = (err: unknown) => {
    log().warn('session not saved', err);
    if (warned) return;
    warned = true;
    process.stderr.write(
      formatWarning(
        t('sessions.saveFailed', { reason: err instanceof Error ? err.message : String(err) }),
        ctx.err,
      ),
    );
  };
  const newRecorder = (resume?: LoadedSession) =>
    openSession({
      kind,
      sessionsDir: ctx.paths.sessionsDir,
      ledgerFile: ctx.paths.usageLedger,
      cwd: ctx.cwd,
      model: chat.settings.model,
      platform: ctx.platform,
      systemPrompt: chat.settings.systemPrompt,
      ...(resume ? { resume } : {}),
      onError,
    });

  let recorder = newRecorder();
  const compactor = new Compactor({
    llm: chat.deps.llm,
    usage: chat.deps.usage,
    model: () => chat.settings.model,
    summaryModel: () => ctx.config.skillModel,
    threshold: ctx.config.compactThreshold,
    toolsTokens: () => estimateToolsTokens(chat.deps.tools.schemas()),
    recorder: { recordCompaction: (c, before, after) => recorder.recordCompaction(c, before, after) },
  });
  const budget = new RunBudget(ctx.config.maxCostPerRun, chat.deps.usage, () => chat.settings.model);

  let earlier: (SessionWiring['earlier'] & { id: string }) | undefined;
  const wiring: SessionWiring = {
    get recorder() {
      return recorder;
    },
    get earlier() {
      // After a /reset the recording moved to a new session: the resumed one's usage is not its.
      return earlier && earlier.id === recorder.id ? earlier : undefined;
    },
    compactor,
    budget,
    kind,
    switchTo(loaded) {
      recorder.close();
      recorder = newRecorder(loaded);
      // /usage adds the tracker (this process) to this: the file's usage, minus what the tracker
      // already held when switching (spent on another session), gives this session's whole usage.
      const now = chat.deps.usage.total();
      earlier = { id: loaded.id, tokens: loaded.tokens - now.totalTokens, cost: loaded.cost - now.cost };
      recorder.attach(chat.messages);
      chat.messages.splice(1, chat.messages.length - 1, ...loaded.messages);
      // A conversation goes on with its model; a skill run's cheap model is not a chat model.
      if (loaded.kind !== 'run' && usableModel(ctx, loaded.model)) chat.settings.model = loaded.model;
    },
  };

  chat.observe((ev) => recorder.observe(ev));
  // Every call counted in the session's tracker (chat, compaction, OCR) goes to the file and ledger.
  const purpose = kind === 'run' ? 'skill' : 'chat';
  chat.deps.usage.onAdd((model, usage, cost, tag) =>
    recorder.recordUsage({ model, usage, cost, purpose: tag === 'compact' ? 'compact' : purpose }),
  );
  chat.observe(compactor.observe);
  chat.observe(budget.observe);
  recorder.attach(chat.messages);

  chat.deps.spill = (call, content) => recorder.spill(call, content);
  chat.deps.onContextOverflow = compactor.onContextOverflow;
  chat.deps.beforeCall = async (messages: Message[], signal: AbortSignal): Promise<BeforeCallOutcome> => {
    const outcome = await compactor.beforeCall(messages, signal);
    const stop = budget.check(messages, compactor.status(messages).tokens);
    return stop ? { ...outcome, stop } : outcome;
  };
  const services: SessionServices = {
    get id() {
      return recorder.id;
    },
    nested: (skill) => recorder.nested(skill),
  };
  chat.deps.services = { ...(chat.deps.services ?? {}), session: services };
  wirings.set(chat, wiring);

  const { flags } = ctx.args;
  // Loaded only when asked for: the REPL starts without the listing code.
  const loaded =
    flags.continue || flags.resume ? await (await import('./resume.js')).resumeFromFlags(ctx) : undefined;
  if (loaded) {
    const { resumeNote } = await import('./notes.js');
    wiring.switchTo(loaded);
    if (flags.model) chat.settings.model = ctx.config.defaultModel;
    process.stderr.write(resumeNote(loaded, ctx, kind === 'repl'));
  }
  return wiring;
}

/** A resumed session's model is kept unless it is unknown here (and the endpoint is not custom). */
function usableModel(ctx: AppContext, model: string): boolean {
  return Boolean(model) && (ctx.config.platform === 'custom' || Boolean(findModel(model)));
}
