import { DEFAULT_WINDOW, findModel } from '../llm/models.js';
import type { LlmClient, Message, Usage } from '../llm/types.js';
import type { UsageTracker } from '../llm/usage.js';
import { replaceFrom } from '../support/arrays.js';
import { t } from '../support/i18n/index.js';
import { log } from '../support/log.js';
import {
  findCut,
  outlineSummary,
  shortenToolResults,
  summaryInstructions,
  summaryMessages,
  transcriptLines,
} from './compact-split.js';
import type { RunEvent } from './events.js';
import type { BeforeCallOutcome } from './loop.js';
import type { SessionRecorder } from './sessions/recorder.js';
import { estimateMessagesTokens, estimateTextTokens } from './tokens.js';

/** Auto compaction keeps recent turns up to this share of the window. */
export const KEEP_FRACTION = 0.25;
/** The summary call's own output limit. */
const SUMMARY_MAX_TOKENS = 2048;

export interface CompactorOptions {
  llm: LlmClient;
  usage: UsageTracker;
  /** The chat model of the next call (it can change between turns with /model). */
  model: () => string;
  /** The cheap model that writes summaries (config skill_model). */
  summaryModel: () => string;
  /** Share of the window at which to compact before a call (config compact_threshold). */
  threshold: number;
  /** Tokens of the tool schemas sent with every call (not in the messages); asked once, when first needed. */
  toolsTokens?: () => number;
  /** Where compactions are recorded. */
  recorder?: Pick<SessionRecorder, 'recordCompaction'> | undefined;
  /** Where a summary call's usage event goes (the session's consumer: file and ledger as 'compact'). */
  report?: (ev: RunEvent) => void;
}

export type CompactReason = 'auto' | 'manual' | 'overflow';

export interface CompactionResult {
  ok: boolean;
  /** Messages replaced by the summary. */
  replaced: number;
  kept: number;
  tokensBefore: number;
  tokensAfter: number;
  /** The summary model failed; a plain outline was used instead. */
  outline: boolean;
  /** Long tool results that were shortened. */
  shortened: number;
  notice?: string;
}

/** What a compaction replaces and with what. */
interface CompactionPlan {
  /** A cut was found and the part before it summarised. */
  summarised: boolean;
  /** The messages summarised (after the system prompt). */
  head: Message[];
  /** The messages kept as they are. */
  tail: Message[];
  /** The summary messages that take the head's place. */
  inserted: Message[];
  outline: boolean;
}

export interface ContextStatus {
  tokens: number;
  window: number;
  fraction: number;
  /** The count came from the server's last usage report (not only an estimate). */
  measured: boolean;
}

/**
 * Keeps a conversation inside its model's context window. Before every call (`beforeCall`) it
 * measures the context — the server's last reported prompt+completion tokens plus an estimate of
 * what was added since, or a full estimate — and near the threshold summarises the older part
 * with the cheap model. On an overflow (`onContextOverflow`) it compacts harder and lets the loop
 * retry once. `compact()` is also what `/compact` calls.
 */
export class Compactor {
  private anchor: { message: Message; tokens: number } | undefined;
  private pendingTokens: number | undefined;
  private queued: string[] = [];
  private tools: number | undefined;
  count = 0;

  constructor(private readonly o: CompactorOptions) {}

  /** Watches usage reports to know the real size of the context. */
  readonly consume = (ev: RunEvent): void => {
    if (ev.type === 'turn_start') this.pendingTokens = undefined;
    else if (ev.type === 'usage') this.pendingTokens = ev.usage.promptTokens + ev.usage.completionTokens;
    else if (ev.type === 'message' && ev.message.role === 'assistant' && this.pendingTokens !== undefined) {
      this.anchor = { message: ev.message, tokens: this.pendingTokens };
      this.pendingTokens = undefined;
    }
  };

  window(model = this.o.model()): number {
    const w = findModel(model)?.contextWindow;
    return w && w > 0 ? w : DEFAULT_WINDOW;
  }

  status(messages: readonly Message[]): ContextStatus {
    const window = this.window();
    const at = this.anchor ? messages.lastIndexOf(this.anchor.message) : -1;
    let tokens: number;
    let measured = false;
    if (this.anchor && at >= 0) {
      tokens = this.anchor.tokens + estimateMessagesTokens(messages.slice(at + 1));
      measured = true;
    } else {
      tokens = estimateMessagesTokens(messages) + this.toolsTokens();
    }
    return { tokens, window, fraction: tokens / window, measured };
  }

  private toolsTokens(): number {
    this.tools ??= this.o.toolsTokens?.() ?? 0;
    return this.tools;
  }

  readonly beforeCall = async (messages: Message[], signal?: AbortSignal): Promise<BeforeCallOutcome> => {
    const notices = this.queued.splice(0);
    const s = this.status(messages);
    if (s.fraction >= this.o.threshold) {
      const r = await this.compact(messages, { reason: 'auto', ...(signal ? { signal } : {}) });
      if (r.notice) notices.push(r.notice);
    }
    return notices.length ? { notices } : {};
  };

  readonly onContextOverflow = async (messages: Message[], signal?: AbortSignal): Promise<boolean> => {
    const r = await this.compact(messages, { reason: 'overflow', ...(signal ? { signal } : {}) });
    if (r.notice) this.queued.push(r.notice);
    return r.ok;
  };

  /** Summarise the older part of `messages` in place. Never throws. */
  async compact(
    messages: Message[],
    opts: { reason: CompactReason; focus?: string; signal?: AbortSignal },
  ): Promise<CompactionResult> {
    const before = this.status(messages);
    const none: CompactionResult = {
      ok: false,
      replaced: 0,
      kept: messages.length - 1,
      tokensBefore: before.tokens,
      tokensAfter: before.tokens,
      outline: false,
      shortened: 0,
    };
    const contextBefore = messages.slice(1);
    const plan = await this.plan(messages, contextBefore, before, opts);
    if (!plan) return none;
    // One huge step (a long document read in the current turn) can still be too big: shorten
    // older long tool results in what is kept.
    const budget = Math.floor(before.window * Math.min(this.o.threshold, 0.9) * 0.8);
    const short = shortenToolResults(plan.tail, Math.max(0, budget - estimateMessagesTokens(plan.inserted)));
    if (!plan.summarised && !short.shortened) return none;
    const after = [...plan.inserted, ...short.messages];
    // A compaction never makes the conversation larger: the summary of a short chat (with its
    // framing) can be longer than the chat. Both sides are measured the same way; when the new
    // context is not smaller, the original is kept.
    const saved = estimateMessagesTokens(contextBefore) - estimateMessagesTokens(after);
    if (saved <= 0) {
      log().info('compaction not smaller; original kept', { reason: opts.reason, saved });
      return opts.reason === 'manual' ? { ...none, notice: t('sessions.compact.notSmaller') } : none;
    }
    const tokensAfter = Math.max(0, before.tokens - saved);
    this.o.recorder?.recordCompaction(
      {
        reason: opts.reason,
        // When kept messages were shortened, the whole new context is stored (the originals stay above it).
        inserted: short.shortened ? after : plan.inserted,
        kept: short.shortened ? 0 : plan.tail.length,
        replaced: plan.head.length,
        tokensBefore: before.tokens,
        tokensAfter,
        model: this.o.model(),
        focus: opts.focus,
      },
      contextBefore,
      after,
    );
    replaceFrom(messages, 1, after);
    this.anchor = undefined;
    this.count += 1;
    return this.done(plan, short.shortened, before, tokensAfter, opts.reason);
  }

  /**
   * Where to cut and the summary of what comes before the cut (an outline if the summary model
   * fails). Without a cut, everything is kept as the tail. Undefined when interrupted.
   */
  private async plan(
    messages: Message[],
    contextBefore: Message[],
    before: ContextStatus,
    opts: { reason: CompactReason; focus?: string; signal?: AbortSignal },
  ): Promise<CompactionPlan | undefined> {
    let keep = Math.floor(before.window * KEEP_FRACTION);
    if (opts.reason === 'overflow') keep = Math.min(keep, Math.floor(before.tokens * 0.4));
    const cut = findCut(messages, keep, opts.reason === 'manual' ? 'manual' : 'auto');
    if (cut === undefined) {
      return { summarised: false, head: [], tail: contextBefore, inserted: [], outline: false };
    }
    const head = messages.slice(1, cut);
    const tail = messages.slice(cut);
    let summary = await this.summarise(head, opts.focus, opts.signal);
    let outline = false;
    if (summary === undefined) {
      if (opts.signal?.aborted) return undefined;
      summary = outlineSummary(head);
      outline = true;
    }
    const inserted = summaryMessages({ summary, replaced: head.length, head, tail });
    return { summarised: true, head, tail, inserted, outline };
  }

  private done(
    plan: CompactionPlan,
    shortened: number,
    before: ContextStatus,
    tokensAfter: number,
    reason: CompactReason,
  ): CompactionResult {
    const result: CompactionResult = {
      ok: true,
      replaced: plan.head.length,
      kept: plan.tail.length,
      tokensBefore: before.tokens,
      tokensAfter,
      outline: plan.outline,
      shortened,
    };
    result.notice = this.notice(result, before, reason);
    log().info('compacted', {
      reason,
      replaced: plan.head.length,
      kept: plan.tail.length,
      before: before.tokens,
      after: tokensAfter,
    });
    return result;
  }

  private notice(r: CompactionResult, before: ContextStatus, reason: CompactReason): string {
    const k = (n: number) => (n >= 1000 ? `${Math.round(n / 1000)}k` : String(n));
    const params = {
      model: this.o.model(),
      percent: Math.round(before.fraction * 100),
      n: r.replaced,
      before: k(r.tokensBefore),
      after: k(r.tokensAfter),
    };
    const parts = [
      r.replaced
        ? t(
            reason === 'overflow'
              ? 'sessions.compact.overflow'
              : reason === 'manual'
                ? 'sessions.compact.manual'
                : 'sessions.compact.auto',
            params,
          )
        : t('sessions.compact.shortenedOnly', params),
    ];
    if (r.shortened && r.replaced) parts.push(t('sessions.compact.shortened', { n: r.shortened }));
    if (r.outline) parts.push(t('sessions.compact.outline'));
    return parts.join(' ');
  }

  /** Ask the summary model; long histories are summarised in pieces, each folded into the next. */
  private async summarise(
    head: Message[],
    focus: string | undefined,
    signal?: AbortSignal,
  ): Promise<string | undefined> {
    const model = this.o.summaryModel();
    const budget = Math.floor(this.window(model) * 0.5);
    const chunks: string[][] = [[]];
    let size = 0;
    for (const line of transcriptLines(head)) {
      const n = estimateTextTokens(line);
      if (size + n > budget && chunks[chunks.length - 1]!.length) {
        chunks.push([]);
        size = 0;
      }
      chunks[chunks.length - 1]!.push(line);
      size += n;
    }
    let summary: string | undefined;
    for (const chunk of chunks) {
      const earlier = summary ? `A summary of what came before this part:\n${summary}\n\n` : '';
      const text = await this.ask(
        model,
        [
          { role: 'system', content: summaryInstructions(focus) },
          {
            role: 'user',
            content: `${earlier}<transcript>\n${chunk.join('\n\n')}\n</transcript>\n\nWrite the summary now.`,
          },
        ],
        signal,
      );
      if (text === undefined) return undefined;
      summary = text;
    }
    return summary;
  }

  private async ask(model: string, messages: Message[], signal?: AbortSignal): Promise<string | undefined> {
    try {
      for await (const ev of this.o.llm.stream({
        model,
        messages,
        thinking: false,
        maxTokens: Math.min(SUMMARY_MAX_TOKENS, findModel(model)?.maxOutput || SUMMARY_MAX_TOKENS),
        ...(signal ? { signal } : {}),
      })) {
        if (ev.type === 'done') {
          this.record(ev.model || model, ev.usage);
          return ev.message.content.trim() || undefined;
        }
        if (ev.type === 'error') {
          if (ev.usage) this.record(model, ev.usage);
          log().warn('compaction summary failed', ev.error);
          return undefined;
        }
      }
    } catch (err) {
      log().warn('compaction summary failed', err);
    }
    return undefined;
  }

  /** The summary call counts in the session's usage, and is reported as a 'compact' call. */
  private record(model: string, usage: Usage): void {
    const cost = this.o.usage.add(model, usage);
    this.o.report?.({ type: 'usage', model, usage, cost, purpose: 'compact' });
  }
}
