import type { AgentEvent, AgentResult } from '../../agent/events.js';
import type { UsageTracker } from '../../llm/usage.js';
import type { ZhiError } from '../../support/errors.js';
import { t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';
import type { OutputFormat } from '../args.js';
import type { AppContext } from '../context.js';
import { errorJson, formatError, formatWarning } from './error.js';
import { safeEvent } from './safe-event.js';
import { Spinner } from './spinner.js';
import type { Style } from './style.js';
import { doneLine, fileLines, formatDuration } from './summary.js';

const KEEP = { keepNewlines: true, keepTabs: true };

export interface PrinterOptions {
  format: OutputFormat;
  out: Style;
  err: Style;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  verbose: number;
  debug: boolean;
  cwd: string;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WriteStream;
}

/**
 * The one-shot / pipe / run consumer of the agent event stream. stdout gets only the answer (or
 * the JSON document); everything else goes to stderr. When stdout is a terminal the answer
 * streams live; otherwise the final answer is written once, so intermediate narration before a
 * tool call never lands in a redirected file.
 */
export class StreamPrinter {
  private readonly stdout: NodeJS.WritableStream;
  private readonly stderr: NodeJS.WriteStream;
  private readonly spinner: Spinner;
  private thinkingOpen = false;
  private textOpen = false;
  private streamedText = '';
  private lastError: ZhiError | undefined;
  /** The model of the last call (a turn with images goes to a vision model). */
  private answeredBy: string | undefined;

  /** A printer for this invocation's streams and flags. */
  static forContext(ctx: AppContext, format: OutputFormat = ctx.args.flags.outputFormat): StreamPrinter {
    return new StreamPrinter({
      format,
      out: ctx.out,
      err: ctx.err,
      stdoutIsTTY: ctx.stdoutIsTTY,
      stderrIsTTY: ctx.stderrIsTTY,
      verbose: ctx.args.flags.verbose,
      debug: ctx.args.flags.debug,
      cwd: ctx.cwd,
    });
  }

  constructor(private readonly o: PrinterOptions) {
    this.stdout = o.stdout ?? process.stdout;
    this.stderr = o.stderr ?? process.stderr;
    this.spinner = new Spinner(this.stderr, o.stderrIsTTY && o.format !== 'stream-json', o.err.dim);
  }

  private get live(): boolean {
    return this.o.format === 'text' && this.o.stdoutIsTTY;
  }

  private showThinking(): boolean {
    return this.o.format === 'text' && (this.o.stderrIsTTY || this.o.verbose > 0);
  }

  handle(ev: AgentEvent): void {
    if (ev.type === 'usage') this.answeredBy = ev.model;
    if (this.o.format === 'stream-json') {
      this.stdout.write(`${JSON.stringify(serialise(ev))}\n`);
      if (ev.type === 'error') this.lastError = ev.error;
      return;
    }
    this.show(safeEvent(ev));
  }

  private show(ev: AgentEvent): void {
    switch (ev.type) {
      case 'turn_start':
        this.spinner.start(t('cli.thinking'));
        break;
      case 'thinking_delta':
        if (!this.showThinking()) break;
        this.spinner.stop();
        if (!this.thinkingOpen) {
          this.stderr.write(this.o.err.dim(this.o.err.italic(`${t('cli.thinking')}\n  `)));
          this.thinkingOpen = true;
        }
        this.stderr.write(this.o.err.dim(ev.text.replace(/\n/g, '\n  ')));
        break;
      case 'text_delta':
        this.spinner.stop();
        this.closeThinking();
        if (this.live) {
          this.stdout.write(ev.text);
          this.textOpen = true;
          this.streamedText += ev.text;
        }
        break;
      case 'tool_start':
        this.closeThinking();
        this.closeText();
        this.spinner.start(`${ev.name} ${ev.label === ev.name ? '' : ev.label} …`);
        break;
      case 'progress':
        this.spinner.update(ev.note);
        break;
      case 'tool_end': {
        this.spinner.stop();
        const mark = ev.ok ? this.o.err.green('✓') : this.o.err.red('✗');
        const label = ev.label === ev.name ? '' : ` ${ev.label}`;
        const prefix = this.o.err.enabled ? '' : '[TOOL] ';
        const why = ev.ok ? '' : ` ${this.o.err.dim(firstLine(ev.result))}`;
        this.stderr.write(
          `${prefix}[${ev.index + 1}/${ev.total}] ${ev.name}${label} ${mark} ${formatDuration(ev.durationMs)}${why}\n`,
        );
        break;
      }
      case 'permission':
        if (ev.decision === 'denied' && ev.code === 'no_terminal') {
          this.stderr.write(formatWarning(t('render.deniedNoTerminal', { name: ev.name }), this.o.err));
        } else if (ev.decision === 'denied' && ev.reason) {
          this.stderr.write(
            formatWarning(t('render.denied', { name: ev.name, reason: ev.reason }), this.o.err),
          );
        } else if (ev.decision === 'denied') {
          this.stderr.write(formatWarning(t('render.deniedByUser', { name: ev.name }), this.o.err));
        } else if (ev.decision === 'refused') {
          this.stderr.write(
            formatWarning(t('render.refused', { name: ev.name, reason: ev.reason ?? '' }), this.o.err),
          );
        }
        break;
      case 'retry':
        this.spinner.stop();
        this.stderr.write(
          formatWarning(
            t('cli.retrying', {
              reason: ev.error.code ? `${ev.error.message} (${ev.error.code})` : ev.error.message,
              seconds: (ev.delayMs / 1000).toFixed(1),
              attempt: ev.attempt,
              max: ev.maxRetries,
            }),
            this.o.err,
          ),
        );
        break;
      case 'warning':
        this.closeText();
        this.stderr.write(formatWarning(ev.message, this.o.err));
        break;
      case 'error':
        this.lastError = ev.error;
        break;
      case 'usage':
      case 'message':
      case 'done':
        break;
    }
  }

  private closeThinking(): void {
    if (this.thinkingOpen) {
      this.stderr.write('\n');
      this.thinkingOpen = false;
    }
  }

  private closeText(): void {
    if (this.textOpen) {
      this.stdout.write('\n');
      this.textOpen = false;
    }
  }

  /** Print the answer (when not streamed), the error panel, the closing line or the JSON document. */
  finish(result: AgentResult, usage: UsageTracker, model: string, durationMs: number): void {
    this.spinner.stop();
    this.closeThinking();
    const error = result.error ?? this.lastError;
    if (this.o.format === 'json' || this.o.format === 'stream-json') {
      const doc =
        error && result.stopReason !== 'answer'
          ? errorJson(error)
          : resultJson(result, usage, this.answeredBy ?? model, durationMs);
      if (this.o.format === 'json') this.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
      else this.stdout.write(`${JSON.stringify({ type: 'result', ...doc })}\n`);
      if (error && result.stopReason !== 'answer')
        this.stderr.write(formatError(error, this.o.err, this.o.debug));
      return;
    }
    if (this.live) {
      // Text shown live already; if the final answer differs (not streamed), print it.
      if (result.text && !this.streamedText.endsWith(visible(result.text, KEEP)))
        this.stdout.write(visible(result.text, KEEP));
      if (this.textOpen || result.text) this.stdout.write('\n');
      this.textOpen = false;
    } else if (result.text) {
      this.stdout.write(result.text.endsWith('\n') ? result.text : `${result.text}\n`);
    }
    if (error && result.stopReason !== 'answer') {
      this.stderr.write(formatError(error, this.o.err, this.o.debug));
      return;
    }
    if (result.stopReason === 'aborted') {
      this.stderr.write(formatWarning(t('cli.interrupted'), this.o.err));
      return;
    }
    const line = doneLine(result, usage, durationMs);
    this.stderr.write(this.o.err.enabled ? `${this.o.err.dim(line)}\n` : `[DONE] ${line}\n`);
    for (const f of fileLines(result, this.o.cwd)) this.stderr.write(`${f}\n`);
  }
}

function firstLine(s: string): string {
  const line = s.split('\n')[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 157)}…` : line;
}

export function resultJson(result: AgentResult, usage: UsageTracker, model: string, durationMs: number) {
  const total = usage.total();
  const cost = usage.cost();
  return {
    response: result.text,
    model,
    usage: {
      prompt_tokens: total.promptTokens,
      completion_tokens: total.completionTokens,
      total_tokens: total.totalTokens,
      cached_tokens: total.cachedTokens,
      reasoning_tokens: total.reasoningTokens,
    },
    cost: { amount: Number(cost.amount.toFixed(6)), currency: cost.currency, covered_by_plan: cost.covered },
    files_written: result.filesWritten.map((f) => f.path),
    tool_calls: result.toolCalls,
    turns: result.turns,
    duration_ms: Math.round(durationMs),
    ...(result.truncated ? { truncated: true } : {}),
  };
}

function serialise(ev: AgentEvent): unknown {
  if (ev.type === 'error') return { type: 'error', ...errorJson(ev.error) };
  if (ev.type === 'done') {
    const { error, ...rest } = ev.result;
    return { type: 'done', result: { ...rest, ...(error ? errorJson(error) : {}) } };
  }
  return ev;
}
