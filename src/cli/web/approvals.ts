/**
 * Approvals on the page: one more prompter (agent/loop.ts's Prompter). A tool call or question
 * becomes an `approval` event on the run's channel, worded by the terminal's own functions
 * (formatApproval, approvalChoices) without colour; it waits for a person's answer
 * (`POST /api/approvals/:id`) from any tab. Nothing answers it by default: no timeout, no "yes"
 * when no tab is open; only a stop withdraws it (a "no").
 */
import { randomBytes } from 'node:crypto';
import type { ApprovalAnswer, Prompter, ToolApproval } from '../../agent/loop.js';
import { t } from '../../support/i18n/index.js';
import { revealed, visible } from '../../support/sanitize.js';
import { ALWAYS_SITE, ALWAYS_STANDING, type Question } from '../../tools/types.js';
import { approvalChoices, formatApproval } from '../approval.js';
import { makeStyle } from '../render/style.js';
import type { EventChannel } from './channel.js';

export type WebAnswer = 'yes' | 'no' | 'always';

interface Pending {
  channel: EventChannel;
  /** The grants of the choices offered, by their key. */
  choices: Map<string, string>;
  settle(answer: WebAnswer, keys: string[]): void;
}

const ALWAYS_GRANTS = new Set([ALWAYS_SITE, ALWAYS_STANDING]);

/** The approvals waiting for a person, across every conversation and run of this server. */
export class Approvals {
  private readonly pending = new Map<string, Pending>();

  /** A prompter whose questions go to this channel. */
  prompter(channel: EventChannel): Prompter {
    return {
      interactive: true,
      confirmTool: (req, signal) => this.confirmTool(channel, req, signal),
      ask: async (q, signal) => (await this.askQuestion(channel, q, signal)) !== false,
    };
  }

  /** Answer one; false when it is not waiting (answered in another tab, or withdrawn). */
  answer(id: string, answer: WebAnswer, keys: string[] = []): boolean {
    const p = this.pending.get(id);
    if (!p) return false;
    p.settle(answer, keys);
    return true;
  }

  private confirmTool(
    channel: EventChannel,
    req: ToolApproval,
    signal: AbortSignal,
  ): Promise<ApprovalAnswer> {
    const plain = makeStyle(false);
    const [title = '', ...all] = formatApproval(req, plain, undefined).trimEnd().split('\n');
    // The extra answers are buttons on the page (`choices`), not a line to read keys from; the
    // warning keeps the terminal's words with the page's mark instead of `[WARNING]`.
    const extra = approvalChoices(req);
    const lines = all.filter((l) => !extra || l !== extra).map((l) => l.replace(/^\[WARNING\] /, '⚠ '));
    const choices = req.choices ?? [];
    const offered = choices.filter((c) => !ALWAYS_GRANTS.has(c.grant));
    const always = choices.filter((c) => ALWAYS_GRANTS.has(c.grant));
    const event = {
      kind: 'tool' as const,
      tool: req.name,
      title,
      lines,
      danger: Boolean(req.warning) || Boolean(req.summary?.risky),
      ...(req.warning ? { warning: revealed(req.warning) } : {}),
      ...(req.summary ? { sandbox: revealed(req.summary.text) } : {}),
      canAlways: always.length > 0,
      ...(always.length ? { alwaysLabel: always.map((c) => c.label).join(t('tools.approve.sep')) } : {}),
      choices: offered.map((c) => ({ key: c.key, label: c.label })),
      question: questionText(),
    };
    const grantsOf = new Map(choices.map((c) => [c.key, c.grant]));
    return this.wait(channel, event, grantsOf, signal).then(({ answer, keys }) => {
      if (answer === 'no') return false;
      const grants = keys.flatMap((k) => {
        const g = grantsOf.get(k);
        return g && !ALWAYS_GRANTS.has(g) ? [g] : [];
      });
      if (answer === 'always') for (const c of always) grants.push(c.grant);
      return grants.length ? { grants } : true;
    });
  }

  private async askQuestion(channel: EventChannel, q: Question, signal: AbortSignal): Promise<boolean> {
    const event = {
      kind: 'question' as const,
      title: visible(q.message),
      lines: q.detail ? visible(q.detail, { keepNewlines: true }).split('\n') : [],
      danger: Boolean(q.danger),
      canAlways: false,
      choices: [],
      question: questionText(),
    };
    const { answer } = await this.wait(channel, event, new Map(), signal);
    return answer !== 'no';
  }

  /** Put the approval on the channel and wait for its answer; a stop withdraws it (a no). */
  private wait(
    channel: EventChannel,
    event: object,
    choices: Map<string, string>,
    signal: AbortSignal,
  ): Promise<{ answer: WebAnswer; keys: string[] }> {
    const id = randomBytes(9).toString('base64url');
    return new Promise((resolve) => {
      const settle = (answer: WebAnswer, keys: string[], withdrawn = false) => {
        if (!this.pending.delete(id)) return;
        signal.removeEventListener('abort', onAbort);
        channel.emit('approval_done', { id, answer: withdrawn ? 'withdrawn' : answer });
        resolve({ answer, keys });
      };
      const onAbort = () => settle('no', [], true);
      this.pending.set(id, { channel, choices, settle: (a, k) => settle(a, k) });
      if (signal.aborted) {
        onAbort();
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
      channel.emit('approval', { id, ...event });
    });
  }
}

/** The terminal's question without its keys (`Allow? [y/N]` → `Allow?`): the page has buttons. */
function questionText(): string {
  return t('tools.approve.question').replace(/\s*\[[yY]\/[nN]\]\s*$/, '');
}
