import type { AgentResult, RunEvent } from '../../../agent/events.js';
import type { UsageTracker } from '../../../llm/usage.js';
import { exhaustive } from '../../../support/exhaustive.js';
import { t } from '../../../support/i18n/index.js';
import { visible } from '../../../support/sanitize.js';
import { RunText } from '../run-text.js';
import { safeEvent } from '../safe-event.js';
import { Spinner } from '../spinner.js';
import { callText } from '../tool-names.js';
import type { ConsumerOptions, RunConsumer } from './consumer.js';

/**
 * `--output-format text` (the default) for one-shot, pipe and `zhi run`: progress, tool lines
 * and the closing line on stderr, the answer on stdout. What is written is `RunText`'s (the same
 * as the REPL's renderer); this adapter draws only what is live: a spinner and the reasoning on
 * stderr, and the answer streaming when stdout is a terminal. Otherwise the answer is written once
 * at the end, so narration before a tool call never lands in a redirected file.
 */
export class TextPrinter implements RunConsumer {
  private readonly stdout: NodeJS.WritableStream;
  private readonly stderr: NodeJS.WriteStream;
  private readonly spinner: Spinner;
  private readonly text: RunText;
  private thinkingOpen = false;
  private textOpen = false;
  private streamedText = '';

  constructor(private readonly o: ConsumerOptions) {
    this.stdout = o.stdout ?? process.stdout;
    this.stderr = o.stderr ?? process.stderr;
    this.spinner = new Spinner(this.stderr, o.stderrIsTTY, o.err.dim);
    this.text = new RunText({
      ui: o.err,
      line: (text) => this.line(text.replace(/\n$/, '')),
      answer: (text) => this.stdout.write(text),
      closeAnswer: () => this.closeText(),
      chat: false,
      oneShot: true,
      debug: o.debug,
      cwd: o.cwd,
      ...(o.stderrIsTTY
        ? { liveFolder: { raw: (text) => this.stderr.write(text), columns: () => this.stderr.columns ?? 80 } }
        : {}),
    });
  }

  get skillModel(): string | undefined {
    return this.text.facts.skillModel;
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
    // Answers, reasoning, labels and notes reach the terminal only through visible().
    const ev = safeEvent(event);
    if (this.text.handle(ev)) return;
    switch (ev.type) {
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
        this.answerDelta(ev.text);
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

  /** The answer streams live only to a terminal; otherwise `RunText` writes it once at the end. */
  private answerDelta(text: string): void {
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

  /** The rest of the live answer (on a terminal), then what `RunText` writes at the end. */
  finish(result: AgentResult, usage: UsageTracker, _model: string, durationMs: number): void {
    this.spinner.stop();
    this.closeThinking();
    if (this.live) {
      // Text shown live already; if the final answer differs (not streamed), print it.
      const text = visible(result.text, { keepNewlines: true, keepTabs: true });
      if (text && !this.streamedText.endsWith(text)) this.stdout.write(text);
      if (this.textOpen || result.text) this.stdout.write('\n');
      this.textOpen = false;
    }
    this.text.finish(result, usage, durationMs, { live: this.live });
  }
}
