import { type AgentResult, isFolderEvent, type RunEvent } from '../../../agent/events.js';
import type { UsageTracker } from '../../../llm/usage.js';
import { exhaustive } from '../../../support/exhaustive.js';
import { t } from '../../../support/i18n/index.js';
import { visible } from '../../../support/sanitize.js';
import { formatError, formatWarning } from '../error.js';
import {
  doneLine,
  fileLines,
  nestedLines,
  permissionText,
  retryText,
  skillNote,
  toolLine,
} from '../lines.js';
import { FolderProgress, longDocumentLines } from '../progress.js';
import { safeEvent } from '../safe-event.js';
import { Spinner } from '../spinner.js';
import { callText } from '../tool-names.js';
import { type ConsumerOptions, type RunConsumer, RunFacts } from './consumer.js';

/**
 * `--output-format text` (the default) for one-shot, pipe and `zhi run`: progress, tool lines
 * and the closing line on stderr, the answer on stdout. When stdout is a terminal the answer
 * streams live; otherwise it is written once at the end, so narration before a tool call never
 * lands in a redirected file.
 */
export class TextPrinter implements RunConsumer {
  private readonly stdout: NodeJS.WritableStream;
  private readonly stderr: NodeJS.WriteStream;
  private readonly spinner: Spinner;
  private readonly facts = new RunFacts();
  private thinkingOpen = false;
  private textOpen = false;
  private streamedText = '';
  /** The progress of a folder run (files at once, resumable). */
  private folder: FolderProgress | undefined;
  /** The skill line is shown once, for the skill the user ran. */
  private skillShown = false;

  constructor(private readonly o: ConsumerOptions) {
    this.stdout = o.stdout ?? process.stdout;
    this.stderr = o.stderr ?? process.stderr;
    this.spinner = new Spinner(this.stderr, o.stderrIsTTY, o.err.dim);
  }

  get skillModel(): string | undefined {
    return this.facts.skillModel;
  }

  private get live(): boolean {
    return this.o.stdoutIsTTY;
  }

  private showThinking(): boolean {
    return this.o.stderrIsTTY || this.o.verbose > 0;
  }

  /** A whole line on stderr (the spinner, if any, is cleared first). */
  private line(text: string): void {
    this.spinner.stop();
    this.closeThinking();
    this.stderr.write(`${text}\n`);
  }

  handle(event: RunEvent): void {
    this.facts.note(event);
    // Answers, reasoning, labels and notes reach the terminal only through visible().
    const ev = safeEvent(event);
    const err = this.o.err;
    if (isFolderEvent(ev)) {
      if (ev.type === 'long_document') for (const l of longDocumentLines(ev, err)) this.line(l);
      else this.folderProgress().handle(ev);
      return;
    }
    switch (ev.type) {
      case 'skill_start':
        if (!this.skillShown) this.line(err.dim(t('skills.running', { name: ev.skill, model: ev.model })));
        this.skillShown = true;
        break;
      case 'skill_step':
        this.line(`[${ev.index + 1}/${ev.total}] ${visible(ev.label)}`);
        break;
      case 'skill_ocr':
      case 'skill_asr':
      case 'skill_kept':
        this.line(err.dim(skillNote(ev)));
        break;
      case 'nested':
        for (const l of nestedLines(ev.chain, ev.event, err)) this.line(l);
        break;
      case 'turn_start':
        this.spinner.start(t('cli.thinking'));
        break;
      case 'tool_call_writing':
        // A long call (a whole file's content) streams for a while: it is not thinking.
        this.closeThinking();
        this.closeText();
        this.spinner.start(t('cli.writingToolCall'));
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
        this.spinner.start(`${callText(ev.name, visible(ev.label))} …`);
        break;
      case 'progress':
        // A line printed since (the long-document notice) stopped the spinner: it turns again
        // with the note, so a long document's parts show on the live line (never piped).
        if (this.spinner.active) this.spinner.update(ev.note);
        else this.spinner.start(visible(ev.note));
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

  /** Print the answer (when not streamed), the error panel or the closing line. */
  finish(result: AgentResult, usage: UsageTracker, _model: string, durationMs: number): void {
    this.spinner.stop();
    this.closeThinking();
    const error = result.error ?? this.facts.lastError;
    if (this.live) {
      // Text shown live already; if the final answer differs (not streamed), print it.
      const text = visible(result.text, { keepNewlines: true, keepTabs: true });
      if (text && !this.streamedText.endsWith(text)) this.stdout.write(text);
      if (this.textOpen || result.text) this.stdout.write('\n');
      this.textOpen = false;
    } else if (result.text) {
      // A pipe (`| cat`, `| less -R`) shows escape sequences as a terminal would: an answer never
      // needs one, so it is shown like the streamed one.
      const text = visible(result.text, { keepNewlines: true, keepTabs: true });
      this.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    }
    if (error && result.stopReason !== 'answer') {
      this.stderr.write(formatError(error, this.o.err, { debug: this.o.debug }));
      return;
    }
    if (result.stopReason === 'aborted') {
      this.stderr.write(formatWarning(t('cli.interrupted'), this.o.err));
      return;
    }
    if (result.estimate) return;
    const line = doneLine(result, usage, durationMs);
    this.stderr.write(this.o.err.enabled ? `${this.o.err.dim(line)}\n` : `${t('cli.tag.done', { line })}\n`);
    for (const f of fileLines(result, this.o.cwd)) this.stderr.write(`${f}\n`);
  }
}
