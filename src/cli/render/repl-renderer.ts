import { Lexer } from 'marked';
import { type AgentResult, isFolderEvent, type RunEvent } from '../../agent/events.js';
import type { FolderEvent } from '../../agent/folder/events.js';
import type { UsageTracker } from '../../llm/usage.js';
import { exhaustive } from '../../support/exhaustive.js';
import { t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';
import { FrameClock } from './frame-clock.js';
import { liveLines, type RunningTool } from './live-lines.js';
import { renderBlock } from './markdown.js';
import { MarkdownStream } from './md-stream.js';
import { partText } from './progress.js';
import type { ReplRendererOptions } from './repl-options.js';
import { RunText } from './run-text.js';
import { safeEvent } from './safe-event.js';
import { Screen } from './screen.js';
import type { Style } from './style.js';
import { formatDuration } from './summary.js';
import { makeTheme, type Theme } from './theme.js';
import { ThinkingText } from './thinking.js';

export type { RenderMode, ReplRendererOptions } from './repl-options.js';

const REDRAW_MS = 50;
const THINKING_WINDOW = 3;

export class ReplRenderer {
  private readonly screen: Screen;
  private readonly theme: Theme;
  private readonly now: () => number;
  private md: MarkdownStream | undefined;
  private mdLive: string[] = [];
  private thinking: ThinkingText | undefined;
  private thinkingLive: string[] = [];
  private readonly tools = new Map<string, RunningTool>();
  private waiting: { text: string; since: number } | undefined;
  /** What the person types while the answer streams (shown under it, sent when it ends). */
  private typeahead = '';
  private readonly clock: FrameClock;
  private suspended = false;
  /** The lines about the run, the answer written once (pipe) and the closing line: as the text format writes them. */
  private readonly text: RunText;
  /** The long document whose parts the waiting line shows (a folder run on a terminal). */
  private partsOf: string | undefined;

  constructor(private readonly o: ReplRendererOptions) {
    this.screen = new Screen(o.term);
    this.theme = makeTheme(o.mode === 'rich' && o.out.enabled);
    this.now = o.now ?? Date.now;
    this.clock = new FrameClock({
      animate: Boolean(o.animate),
      now: this.now,
      intervalMs: REDRAW_MS,
      draw: () => this.draw(),
      tick: () => {
        if (!this.suspended) this.screen.setLive(this.liveLines());
      },
    });
    this.text = new RunText({
      ui: this.ui,
      line: (text) => this.printUi(text),
      answer: (text) => o.term.write(text),
      closeAnswer: () => this.closeAnswer(),
      chat: true,
      oneShot: Boolean(o.oneShot),
      debug: o.debug,
      cwd: o.cwd,
      width: () => this.width(),
    });
  }

  private get rich(): boolean {
    return this.o.mode === 'rich';
  }

  /** The style of lines about the run (stdout's when everything is drawn there). */
  private get ui(): Style {
    return this.rich ? this.o.out : this.o.err;
  }

  private width(): number {
    return Math.max(20, this.o.term.columns() - 1);
  }

  private printUi(text: string): void {
    const lines = text.replace(/\n$/, '').split('\n');
    if (this.rich) this.screen.print(lines);
    else this.o.stderr(`${lines.join('\n')}\n`);
  }

  private printAnswer(lines: string[]): void {
    if (!lines.length) return;
    if (this.rich) this.screen.print(lines);
    else if (this.o.mode === 'plain') this.o.term.write(lines.map((l) => `${l}\n`).join(''));
  }

  handle(event: RunEvent): void {
    // Every mode, pipe included: `less -R` would run an escape, and an answer never needs one.
    const ev = safeEvent(event);
    if (isFolderEvent(ev) && this.partsLine(ev)) return;
    if (ev.type === 'tool_end') this.tools.delete(ev.id);
    if (this.text.handle(ev)) {
      if (ev.type === 'tool_end' || ev.type === 'nested') this.clock.redraw();
      return;
    }
    switch (ev.type) {
      case 'turn_start':
        this.startWaiting(t('cli.thinking'));
        break;
      case 'thinking_delta':
        this.onThinking(ev.text);
        break;
      case 'text_delta':
        this.onText(ev.text);
        break;
      case 'tool_call_writing':
        // A long call (a whole file's content) streams for a while: it is not thinking.
        this.closeThinking();
        this.closeAnswer();
        this.startWaiting(t('cli.writingToolCall'));
        break;
      case 'tool_start':
        this.onToolStart(ev);
        break;
      case 'progress': {
        const tool = this.tools.get(ev.id);
        if (tool) tool.note = ev.note;
        // A long document's parts (no tool of their own): the waiting line says how far they are.
        else if (ev.part) this.waiting = { text: visible(ev.note), since: this.waiting?.since ?? this.now() };
        this.clock.redraw();
        break;
      }
      case 'error':
      case 'message':
      case 'usage':
      case 'done':
      case 'user':
        return;
      default:
        exhaustive(ev);
    }
  }

  /**
   * `/run` on a folder or a long document on a terminal: a long document's parts update the
   * waiting line, not one line every few parts (true: drawn there). Every other folder event is
   * one plain line per file, written by `RunText` (the screen keeps the live parts).
   */
  private partsLine(ev: FolderEvent): boolean {
    if (ev.type === 'folder_file' && ev.part && this.rich) {
      this.closeAnswer();
      const text = `${visible(ev.file)} ${partText(ev.part)}`;
      this.waiting = { text, since: this.waiting?.since ?? this.now() };
      this.partsOf = ev.file;
      this.clock.redraw();
      return true;
    }
    if (ev.type === 'folder_file' && ev.file === this.partsOf && ev.status !== 'started') {
      this.closeAnswer();
      this.waiting = undefined;
      this.partsOf = undefined;
      this.clock.redraw();
    }
    return false;
  }

  private onThinking(text: string): void {
    this.waiting = undefined;
    this.thinking ??= new ThinkingText(this.theme, this.now());
    if (this.thinking.empty && this.o.verbose() && text.trim()) {
      this.printUi(
        this.ui.enabled ? this.ui.dim(this.ui.italic(`✻ ${t('cli.thinking')}`)) : t('cli.thinking'),
      );
    }
    this.thinking.push(text);
    this.clock.schedule();
  }

  private onText(text: string): void {
    this.waiting = undefined;
    this.closeThinking();
    this.md ??= new MarkdownStream(
      (src) => Lexer.lex(src, { gfm: true }),
      (tok) => renderBlock(tok, { width: this.width(), theme: this.theme }),
      () => ({ width: this.width(), theme: this.theme }),
    );
    this.md.push(text);
    this.clock.schedule();
  }

  private onToolStart(ev: Extract<RunEvent, { type: 'tool_start' }>): void {
    this.waiting = undefined;
    this.closeThinking();
    this.closeAnswer();
    this.tools.set(ev.id, {
      index: ev.index,
      total: ev.total,
      name: ev.name,
      label: ev.label === ev.name ? '' : ev.label,
      started: this.now(),
    });
    this.clock.redraw();
  }

  /** The run is over: print what is left, then the error panel, "Interrupted." or the closing line. */
  finish(result: AgentResult, usage: UsageTracker, durationMs: number): void {
    this.waiting = undefined;
    // A folder's answers are not streamed (its files run at once), nor is a dry run's estimate:
    // they are shown whole at the end.
    const live = this.o.mode !== 'pipe';
    if ((this.text.folderRun || result.estimate) && live && result.text.trim())
      this.handle({ type: 'text_delta', text: result.text });
    this.tools.clear();
    this.closeThinking();
    this.closeAnswer();
    this.clock.stop();
    this.screen.clear();
    this.text.finish(result, usage, durationMs, { live });
  }

  /**
   * Stop drawing: a question is about to be asked on the terminal. What the model said so far is
   * printed first (the loop asks before this renderer has seen the tool's start event).
   */
  suspend(): void {
    this.waiting = undefined;
    this.closeThinking();
    this.closeAnswer();
    this.suspended = true;
    this.clock.stop();
    this.screen.clear();
  }

  resume(): void {
    this.suspended = false;
    this.clock.redraw();
  }

  /** Show the text typed ahead of the next prompt under the live answer. */
  setTypeahead(text: string): void {
    if (text === this.typeahead) return;
    this.typeahead = text;
    this.clock.schedule();
  }

  dispose(): void {
    this.clock.stop();
    this.screen.clear();
  }

  // — drawing —

  private startWaiting(text: string): void {
    this.waiting = { text, since: this.now() };
    this.clock.redraw();
  }

  private closeThinking(): void {
    const th = this.thinking;
    if (!th) return;
    this.thinking = undefined;
    this.thinkingLive = [];
    if (th.empty) return;
    this.screen.clear();
    const took = formatDuration(this.now() - th.started);
    if (this.o.verbose()) {
      const { commit } = th.take(this.width() - 2, true);
      if (commit.length) this.printUi(commit.join('\n'));
    } else if (this.rich) {
      this.printUi(this.ui.dim(`✻ ${t('repl.thoughtFor', { duration: took })}`));
    }
  }

  /**
   * Commit the rest of the answer. A table taller than the screen has been printed row by row as
   * it came (table-stream.ts), so stopping it (Ctrl+C) or finishing it prints only what arrived
   * since the last frame and its bottom border, however long it got.
   */
  private closeAnswer(): void {
    if (!this.md) return;
    const commit = this.md.update(true, 0).commit;
    this.mdLive = [];
    this.md = undefined;
    this.screen.clear();
    this.printAnswer(commit);
  }

  private draw(): void {
    const width = this.width();
    const maxLive = this.rich ? Math.max(1, this.screen.maxLive() - this.tools.size - 1) : 0;
    // Finished blocks of the answer, printed with the new live area under them (one write).
    let done: string[] = [];
    if (this.md) {
      const { commit, live } = this.md.update(false, maxLive);
      if (this.rich) done = commit;
      else this.printAnswer(commit);
      this.mdLive = this.rich ? live : [];
    }
    if (this.thinking) {
      if (this.o.verbose()) {
        const { commit, live } = this.thinking.take(width - 2, false);
        if (commit.length) this.printUi(commit.join('\n'));
        this.thinkingLive = this.rich ? live.slice(-maxLive) : [];
      } else {
        this.thinkingLive = this.rich ? this.thinking.tail(width - 2, THINKING_WINDOW) : [];
      }
    }
    if (!this.rich) return;
    if (this.suspended) {
      this.screen.print(done);
      return;
    }
    this.screen.print(done, this.liveLines());
    this.clock.spin(
      this.waiting !== undefined || this.tools.size > 0 || (this.thinking !== undefined && !this.o.verbose()),
    );
  }

  private liveLines(): string[] {
    return liveLines({
      ui: this.ui,
      frame: this.clock.frame,
      now: this.now(),
      verbose: this.o.verbose(),
      thinking: this.thinking,
      thinkingLive: this.thinkingLive,
      mdLive: this.mdLive,
      tools: this.tools.values(),
      waiting: this.waiting,
      typeahead: this.typeahead,
    });
  }
}
