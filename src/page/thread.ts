// One conversation as the page draws it: the saved history (GET /api/conversations/:id) and the
// live run built from its events. A reconnect replays the current run from `run_start`, which
// resets `live`, so nothing is drawn twice.
import { adviceOf } from './api.js';
import { t } from './i18n.js';
import type { Cost, HistoryItem, RunEvent } from './types.js';

export type Item =
  | { kind: 'user'; text: string; attachments?: string[] }
  | { kind: 'assistant'; text: string; thinking: string; streaming: boolean }
  | { kind: 'tool'; id: string; label: string; ok?: boolean; summary?: string; lines?: string[] }
  | { kind: 'notice'; tone: 'error' | 'warning' | 'retry' | 'info'; text: string; advice?: string[] }
  | { kind: 'cost'; model: string; tokens: number; cost?: Cost };

export class Thread {
  base: Item[] = [];
  live: Item[] = [];
  running = false;
  private tokens = 0;
  private cost: Cost | undefined;
  private model = '';

  get items(): Item[] {
    return this.base.concat(this.live);
  }

  /**
   * The saved history. The server replays its last run (finished or not) to a tab that opens
   * late, and that run is already in the history: the first replayed user message that equals
   * the history's last one takes its place (see `user`), so it is drawn once.
   */
  setHistory(items: HistoryItem[], running: boolean): void {
    this.base = items.map(fromHistory);
    this.replayPending = !running;
    if (running) this.trimAtLastUser();
  }

  private replayPending = false;

  private trimAtLastUser(text?: string): void {
    const at = this.base.map((i) => i.kind).lastIndexOf('user');
    if (at < 0) return;
    const last = this.base[at];
    if (text === undefined || (last?.kind === 'user' && sameText(last.text, text)))
      this.base = this.base.slice(0, at);
  }

  private runId: string | undefined;

  /**
   * A run starts: the last run's items become saved ones. The same run announced again (the
   * stream reconnected and the server replays it) is drawn again from its start instead.
   */
  start(runId?: string): void {
    if (runId === undefined || runId !== this.runId) this.base = this.base.concat(this.live);
    this.runId = runId;
    this.live = [];
    this.running = true;
    this.tokens = 0;
    this.cost = undefined;
  }

  /** The run ended: its items stay until the history is read again. */
  end(): void {
    this.running = false;
    this.closeAnswer();
  }

  apply(ev: RunEvent): void {
    if (ev.type === 'nested') {
      this.nested(ev.event);
      return;
    }
    switch (ev.type) {
      case 'user':
        this.user(ev);
        return;
      case 'turn_start':
        this.model = ev.model;
        return;
      case 'text_delta':
        this.answer().text += ev.text;
        return;
      case 'thinking_delta':
        this.answer().thinking += ev.text;
        return;
      case 'message':
        this.closeAnswer();
        return;
      case 'retry':
        this.notice('retry', t('page.chat.retry', retryParams(ev)));
        return;
      case 'tool_start':
        this.closeAnswer();
        this.live.push({ kind: 'tool', id: ev.id, label: ev.label });
        return;
      case 'tool_end':
        this.toolEnd(ev);
        return;
      case 'permission':
        this.permission(ev);
        return;
      case 'usage':
        this.usage(ev);
        return;
      case 'warning':
        this.notice('warning', ev.message);
        return;
      case 'error':
        this.notice('error', ev.error.message, adviceOf(ev.error));
        return;
      case 'done':
        this.done(ev.result);
        return;
      default:
        return;
    }
  }

  private user(ev: Extract<RunEvent, { type: 'user' }>): void {
    if (!this.running) this.start();
    const text = ev.typed ?? textOf(ev.message?.content);
    if (this.replayPending) {
      this.replayPending = false;
      this.trimAtLastUser(text);
      const model = textOf(ev.message?.content);
      if (model !== text) this.trimAtLastUser(model);
    }
    if (!ev.note) this.live.push({ kind: 'user', text });
  }

  /** A call not run: the person's words for it (`reason` is written for the model; a refusal's is shown, as the terminal does). */
  private permission(ev: Extract<RunEvent, { type: 'permission' }>): void {
    if (ev.decision === 'allowed') return;
    const name = ev.name ?? '';
    if (ev.notice) this.notice('warning', ev.notice);
    else if (ev.decision === 'denied' && ev.code !== 'no_terminal')
      this.notice('info', t('page.chat.deniedByYou', { name }));
    else this.notice('warning', t('page.chat.refused', { name, reason: ev.reason ?? '' }));
  }

  private nested(ev: RunEvent): void {
    if (ev.type === 'tool_start' || ev.type === 'tool_end') this.apply(ev);
  }

  private answer(): Extract<Item, { kind: 'assistant' }> {
    const last = this.live[this.live.length - 1];
    if (last?.kind === 'assistant' && last.streaming) return last;
    const item: Extract<Item, { kind: 'assistant' }> = {
      kind: 'assistant',
      text: '',
      thinking: '',
      streaming: true,
    };
    this.live.push(item);
    return item;
  }

  private closeAnswer(): void {
    for (const item of this.live) if (item.kind === 'assistant') item.streaming = false;
  }

  private toolEnd(ev: Extract<RunEvent, { type: 'tool_end' }>): void {
    const found = this.live.find(
      (i): i is Extract<Item, { kind: 'tool' }> => i.kind === 'tool' && i.id === ev.id,
    );
    const item = found ?? { kind: 'tool' as const, id: ev.id, label: ev.label };
    if (!found) this.live.push(item);
    item.ok = ev.ok;
    item.label = ev.label || item.label;
    if (ev.display?.length) item.lines = ev.display.slice(0, 8);
  }

  private usage(ev: Extract<RunEvent, { type: 'usage' }>): void {
    this.model = ev.model || this.model;
    this.tokens += totalOf(ev.usage);
    this.cost = this.cost
      ? {
          ...this.cost,
          amount: this.cost.amount + ev.cost.amount,
          approx: this.cost.approx || ev.cost.approx,
        }
      : { ...ev.cost };
  }

  private done(result: Extract<RunEvent, { type: 'done' }>['result']): void {
    this.closeAnswer();
    if (result.stopReason === 'aborted') this.notice('info', t('page.chat.stopped'));
    const error =
      result.error ?? (result.message ? (result as { message: string; code: string }) : undefined);
    const shown = this.live.some((i) => i.kind === 'notice' && i.tone === 'error');
    if (error && !shown && result.stopReason !== 'answer')
      this.notice('error', error.message, adviceOf(error));
    if (this.tokens > 0 || this.cost)
      this.live.push({
        kind: 'cost',
        model: this.model,
        tokens: this.tokens,
        ...(this.cost ? { cost: this.cost } : {}),
      });
    this.running = false;
  }

  /** A line the server said about the run (an attachment read). */
  note(text: string): void {
    this.notice('info', text);
  }

  private notice(tone: 'error' | 'warning' | 'retry' | 'info', text: string, advice?: string[]): void {
    if (!text) return;
    this.closeAnswer();
    this.live.push({ kind: 'notice', tone, text, ...(advice?.length ? { advice } : {}) });
  }
}

function retryParams(ev: Extract<RunEvent, { type: 'retry' }>) {
  return {
    attempt: ev.attempt,
    max: ev.maxRetries,
    seconds: Math.max(1, Math.round(ev.delayMs / 1000)),
    reason: ev.error.message,
  };
}

function totalOf(u: Record<string, unknown> | undefined): number {
  if (!u) return 0;
  const n = (k: string) => (typeof u[k] === 'number' ? (u[k] as number) : 0);
  return n('totalTokens') || n('promptTokens') + n('completionTokens');
}

function sameText(a: string, b: string): boolean {
  return a.trim() === b.trim();
}

/** A message's content as text (a string, or the text parts of a list). */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((p) => (p && typeof p === 'object' && 'text' in p && typeof p.text === 'string' ? p.text : ''))
    .filter(Boolean)
    .join('\n');
}

function fromHistory(h: HistoryItem): Item {
  if (h.role === 'user')
    return { kind: 'user', text: h.text, ...(h.attachments?.length ? { attachments: h.attachments } : {}) };
  if (h.role === 'assistant')
    return { kind: 'assistant', text: h.text, thinking: h.thinking ?? '', streaming: false };
  return { kind: 'tool', id: '', label: h.label, ok: h.ok, ...(h.summary ? { summary: h.summary } : {}) };
}
