/**
 * Everything that makes a conversation persistent, bounded and accounted for, built before the
 * chat and handed to its constructor: the session recorder (file + usage ledger), the compactor
 * (keeps it inside the context window), the run budget, and the hooks the loop calls (spill large
 * results, compact and check the budget before a call, shrink on overflow). All three are
 * consumers of the chat's RunEvent stream.
 */
import type { Platform } from '../../llm/platforms.js';
import type { LlmClient, Message } from '../../llm/types.js';
import type { UsageTracker } from '../../llm/usage.js';
import { replaceFrom } from '../../support/arrays.js';
import type { ToolRegistry } from '../../tools/registry.js';
import { RunBudget } from '../budget.js';
import { Compactor } from '../compact.js';
import type { Conversation } from '../conversation.js';
import type { RunEvent } from '../events.js';
import type { AgentDeps, BeforeCallOutcome } from '../loop.js';
import { PriceStepWatch } from '../price-step.js';
import { estimateToolsTokens } from '../tokens.js';
import type { SessionKind } from './format.js';
import { type OpenSessionOptions, openSession, type SessionRecorder } from './recorder.js';
import type { LoadedSession } from './store.js';

/**
 * Where this invocation saves its sessions and what bounds one run, the same for a chat and a
 * skill run (the command line decides it once, in sessionPlace).
 */
export interface SessionPlace {
  sessionsDir: string;
  ledgerFile: string;
  cwd: string;
  platform: Platform;
  maxCostPerRun: number | undefined;
  /** The session file or ledger could not be written (warn once; the run goes on). */
  onError(err: unknown): void;
}

/** The recorder of one session in `place`: a chat's, a skill run's, a resumed one's. */
export function recorderIn(
  place: SessionPlace,
  o: Omit<OpenSessionOptions, keyof SessionPlace>,
): SessionRecorder {
  return openSession({
    sessionsDir: place.sessionsDir,
    ledgerFile: place.ledgerFile,
    cwd: place.cwd,
    platform: place.platform,
    onError: place.onError,
    ...o,
  });
}

/** The run budget (`max_cost_per_run`) over `usage`, priced at the model in use. */
export function budgetIn(place: SessionPlace, usage: UsageTracker, model: () => string): RunBudget {
  return new RunBudget(place.maxCostPerRun, usage, model);
}

/** What one chat brings to its wiring (the rest is the invocation's: place, models, thresholds). */
export interface ChatWiringParts {
  kind: SessionKind;
  llm: LlmClient;
  usage: UsageTracker;
  tools: ToolRegistry;
  /** The conversation recorded: its messages, and its settings (the recorder's first lines). */
  conversation: Conversation;
}

export interface WiringOptions extends SessionPlace, ChatWiringParts {
  /** The model compaction summaries are written with (config skill_model). */
  summaryModel: string;
  compactThreshold: number;
  /** The chat model to go on with when a session with this model is resumed. */
  resumedModel(model: string): string;
}

export class SessionWiring {
  readonly compactor: Compactor;
  readonly budget: RunBudget;
  /** Tells the person once when a request is priced in a dearer step by its size. */
  readonly priceSteps: PriceStepWatch;
  readonly kind: SessionKind;
  private _recorder: SessionRecorder;
  private readonly chat: Conversation;
  private _earlier: { id: string; tokens: number; cost: number } | undefined;

  constructor(private readonly o: WiringOptions) {
    this.kind = o.kind;
    this.chat = o.conversation;
    this._recorder = this.newRecorder();
    this._recorder.attach(this.chat.messages);
    const model = () => this.chat.settings.model;
    this.compactor = new Compactor({
      llm: o.llm,
      usage: o.usage,
      model,
      summaryModel: () => o.summaryModel,
      threshold: o.compactThreshold,
      toolsTokens: () => estimateToolsTokens(o.tools.schemas()),
      recorder: { recordCompaction: (c, before, after) => this._recorder.recordCompaction(c, before, after) },
      report: (ev) => this.consume(ev),
    });
    this.budget = budgetIn(o, o.usage, model);
    this.priceSteps = new PriceStepWatch(o.platform, model);
  }

  get recorder(): SessionRecorder {
    return this._recorder;
  }

  /** Usage of the resumed session's earlier runs (from its file), for /usage. */
  get earlier(): { tokens: number; cost: number } | undefined {
    // After a /reset the recording moved to a new session: the resumed one's usage is not its.
    return this._earlier && this._earlier.id === this._recorder.id ? this._earlier : undefined;
  }

  /** The loop's hooks: spill, compaction and the budget before every call, shrink on overflow. */
  hooks(): Pick<AgentDeps, 'spill' | 'beforeCall' | 'onContextOverflow'> {
    return {
      spill: (call, content) => this._recorder.spill(call, content),
      onContextOverflow: this.compactor.onContextOverflow,
      beforeCall: async (messages: Message[], signal: AbortSignal): Promise<BeforeCallOutcome> => {
        const outcome = await this.compactor.beforeCall(messages, signal);
        const tokens = this.compactor.status(messages).tokens;
        const stop = this.budget.check(messages, tokens);
        const step = this.priceSteps.check(tokens);
        const notices = step ? [...(outcome.notices ?? []), step] : outcome.notices;
        return { ...outcome, ...(notices ? { notices } : {}), ...(stop ? { stop } : {}) };
      },
    };
  }

  /** The consumer of the chat's events: the file and ledger, the compactor, the budget. */
  readonly consume = (ev: RunEvent): void => {
    this._recorder.consume(ev);
    this.compactor.consume(ev);
    this.budget.consume(ev);
  };

  /** Replace the conversation with a saved one and keep recording into that file (/resume). */
  switchTo(loaded: LoadedSession): void {
    const chat = this.chat;
    this._recorder.close();
    this._recorder = this.newRecorder(loaded);
    // /usage adds the tracker (this process) to this: the file's usage, minus what the tracker
    // already held when switching (spent on another session), gives this session's whole usage.
    const now = this.o.usage.total();
    this._earlier = { id: loaded.id, tokens: loaded.tokens - now.totalTokens, cost: loaded.cost - now.cost };
    this._recorder.attach(chat.messages);
    replaceFrom(chat.messages, 1, loaded.messages);
    // A conversation goes on with its model; a skill run's cheap model is not a chat model.
    if (loaded.kind !== 'run') chat.settings.model = this.o.resumedModel(loaded.model);
  }

  private newRecorder(resume?: LoadedSession): SessionRecorder {
    return recorderIn(this.o, {
      kind: this.o.kind,
      model: this.chat.settings.model,
      systemPrompt: this.chat.settings.systemPrompt,
      ...(resume ? { resume } : {}),
    });
  }
}
