import type { AgentResult, RunEvent } from '../../agent/events.js';
import type { UsageTracker } from '../../llm/usage.js';
import type { ZhiError } from '../../support/errors.js';
import { exhaustive } from '../../support/exhaustive.js';
import { t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';
import type { OutputFormat } from '../args.js';
import type { AppContext } from '../context.js';
import { errorJson, formatError, formatWarning } from './error.js';
import { doneLine, fileLines, nestedLines, permissionText, retryText, toolLine } from './lines.js';
import { FolderProgress, longDocumentLines } from './progress.js';
import { safeEvent } from './safe-event.js';
import { Spinner } from './spinner.js';
import type { Style } from './style.js';

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
  /** Between a turn's start and its message (a usage event then is the turn's, not OCR's). */
  private inTurn = false;
  /** The progress of a folder run (files at once, resumable). */
  private folder: FolderProgress | undefined;
  /** The skill line is shown once, for the skill the user ran. */
  private skillShown = false;
  /** The model of the skill the user ran (from its first skill_start). */
  skillModel: string | undefined;

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

  handle(ev: RunEvent): void {
    if (ev.type === 'turn_start') this.inTurn = true;
    if (ev.type === 'message') this.inTurn = false;
    if (ev.type === 'usage' && this.inTurn) this.answeredBy = ev.model;
    if (ev.type === 'skill_start') this.skillModel ??= ev.model;
    if (this.o.format === 'stream-json') {
      if (isDelta(ev) && ev.type === 'nested') return;
      this.stdout.write(`${JSON.stringify(serialise(ev))}\n`);
      if (ev.type === 'error') this.lastError = ev.error;
      return;
    }
    if (this.o.format === 'text') this.handleText(ev);
    else if (ev.type === 'error') this.lastError = ev.error;
  }

  /** A whole line on stderr (the spinner, if any, is cleared first). */
  private line(text: string): void {
    this.spinner.stop();
    this.closeThinking();
    this.stderr.write(`${text}\n`);
  }

  private handleText(event: RunEvent): void {
    // Answers, reasoning, labels and notes reach the terminal only through visible().
    const ev = safeEvent(event);
    const err = this.o.err;
    switch (ev.type) {
      case 'skill_start':
        if (!this.skillShown) this.line(err.dim(t('skills.running', { name: ev.skill, model: ev.model })));
        this.skillShown = true;
        break;
      case 'skill_step':
        this.line(`[${ev.index + 1}/${ev.total}] ${visible(ev.label)}`);
        break;
      case 'skill_ocr':
        this.line(err.dim(t('skills.ocr', { file: visible(ev.file) })));
        break;
      case 'skill_asr':
        this.line(err.dim(t('skills.asr', { file: visible(ev.file) })));
        break;
      case 'nested':
        for (const l of nestedLines(ev.chain, ev.event, err)) this.line(l);
        break;
      case 'long_document':
        for (const l of longDocumentLines(ev, err)) this.line(l);
        break;
      case 'folder_start':
      case 'folder_file':
      case 'folder_batch':
      case 'folder_wait':
      case 'folder_end':
        this.folderProgress().handle(ev);
        break;
      case 'turn_start':
        this.spinner.start(t('cli.thinking'));
        break;
      case 'thinking_delta':
        this.thinking(ev.text);
        break;
      case 'text_delta':
        this.text(ev.text);
        break;
      case 'tool_start':
        this.closeThinking();
        this.closeText();
        this.spinner.start(`${ev.name} ${ev.label === ev.name ? '' : ev.label} …`);
        break;
      case 'progress':
        this.spinner.update(ev.note);
        break;
      case 'tool_end':
        this.line(toolLine(ev, err));
        break;
      case 'permission': {
        const text = permissionText(ev);
        if (text) this.line(formatWarning(text, err).trimEnd());
        break;
      }
      case 'retry':
        this.spinner.stop();
        this.stderr.write(formatWarning(retryText(ev), err));
        break;
      case 'warning':
        this.closeText();
        // A refusal can arrive while the spinner turns (before the tool's own line): clear it first.
        this.line(formatWarning(ev.message, err).trimEnd());
        break;
      case 'error':
        this.lastError = ev.error;
        break;
      case 'message':
      case 'usage':
      case 'done':
      case 'user':
        break;
      default:
        exhaustive(ev);
    }
  }

  private folderProgress(): FolderProgress {
    this.folder ??= new FolderProgress({
      err: this.o.err,
      live: this.o.stderrIsTTY,
      line: (text) => this.line(text),
      raw: (text) => this.stderr.write(text),
      columns: () => this.stderr.columns ?? 80,
    });
    return this.folder;
  }

  /** Reasoning on stderr, dimmed and indented, when it is shown at all. */
  private thinking(text: string): void {
    if (!this.showThinking()) return;
    this.spinner.stop();
    if (!this.thinkingOpen) {
      this.stderr.write(this.o.err.dim(this.o.err.italic(`${t('cli.thinking')}\n  `)));
      this.thinkingOpen = true;
    }
    this.stderr.write(this.o.err.dim(text.replace(/\n/g, '\n  ')));
  }

  /** The answer streams live only to a terminal; otherwise finish() writes it once. */
  private text(text: string): void {
    this.spinner.stop();
    this.closeThinking();
    if (!this.live) return;
    this.stdout.write(text);
    this.textOpen = true;
    this.streamedText += text;
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
        this.stderr.write(formatError(error, this.o.err, { debug: this.o.debug }));
      return;
    }
    if (this.live) {
      // Text shown live already; if the final answer differs (not streamed), print it.
      const text = visible(result.text, { keepNewlines: true, keepTabs: true });
      if (text && !this.streamedText.endsWith(text)) this.stdout.write(text);
      if (this.textOpen || result.text) this.stdout.write('\n');
      this.textOpen = false;
    } else if (result.text) {
      this.stdout.write(result.text.endsWith('\n') ? result.text : `${result.text}\n`);
    }
    if (error && result.stopReason !== 'answer') {
      this.stderr.write(formatError(error, this.o.err, { debug: this.o.debug }));
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

function isDelta(ev: RunEvent): boolean {
  const inner = ev.type === 'nested' ? ev.event : ev;
  return inner.type === 'text_delta' || inner.type === 'thinking_delta';
}

/** One stream-json line: errors as their JSON shape, nested events with their chain. */
function serialise(ev: RunEvent): unknown {
  if (ev.type === 'nested') return { type: 'nested', chain: ev.chain, event: serialise(ev.event) };
  if (ev.type === 'error') return { type: 'error', ...errorJson(ev.error) };
  if (ev.type === 'done') {
    const { error, ...rest } = ev.result;
    return { type: 'done', result: { ...rest, ...(error ? errorJson(error) : {}) } };
  }
  return ev;
}
