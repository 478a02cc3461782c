/**
 * How a run's text is written for a person, the part that is never drawn live: the lines about
 * the run (the skill line, its steps and notes, nested runs, tool lines, permission, retry and
 * warning lines, a folder run's progress), the answer written once at the end when stdout is not
 * where it was shown, and the closing part (the error panel, "Interrupted." or the closing line
 * with the files written). The text format (`formats/text.ts`: one-shot, pipe, `zhi run`) and the
 * REPL's renderer (`repl-renderer.ts`: a chat message, `/run`, `zhi -c` in a terminal) both write
 * a run through this class; each keeps only what it draws live (the spinner, the reasoning, the
 * streamed answer) and says where a line goes.
 */

import { type AgentResult, isFolderEvent, type RunEvent } from '../../agent/events.js';
import type { FolderEvent } from '../../agent/folder/events.js';
import type { UsageTracker } from '../../llm/usage.js';
import { exhaustive } from '../../support/exhaustive.js';
import { t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';
import { traitsOf } from '../../tools/index.js';
import { formatWarning } from './error.js';
import { RunFacts } from './formats/consumer.js';
import { nestedLines, permissionText, retryText, skillNote, toolLine } from './lines.js';
import { FolderProgress, longDocumentLines } from './progress.js';
import { commandRan, shownOutput } from './shell-output.js';
import type { Style } from './style.js';
import { endText } from './summary.js';

/** The events that are lines about the run (every other event is drawn live, or not at all). */
export type RunLineEvent =
  | FolderEvent
  | Extract<
      RunEvent,
      {
        type:
          | 'skill_start'
          | 'skill_step'
          | 'skill_ocr'
          | 'skill_asr'
          | 'skill_kept'
          | 'nested'
          | 'tool_end'
          | 'permission'
          | 'retry'
          | 'warning';
      }
    >;

/** Every line event's type besides the folder events, checked complete by the compiler. */
const LINE_EVENT_TYPES: Record<Exclude<RunLineEvent, FolderEvent>['type'], true> = {
  skill_start: true,
  skill_step: true,
  skill_ocr: true,
  skill_asr: true,
  skill_kept: true,
  nested: true,
  tool_end: true,
  permission: true,
  retry: true,
  warning: true,
};

export function isRunLine(ev: RunEvent): ev is RunLineEvent {
  return isFolderEvent(ev) || Object.hasOwn(LINE_EVENT_TYPES, ev.type);
}

export interface RunTextOptions {
  /** The style of the lines about the run (stderr's, or stdout's when everything is drawn there). */
  ui: Style;
  /**
   * One or more whole lines about the run; the host drops one newline at its end and clears its
   * live parts (a spinner, a live area) first.
   */
  line: (text: string) => void;
  /** The answer written once, with its newline. */
  answer: (text: string) => void;
  /** A step, a warning or a folder's progress comes between parts of the answer: end what was shown of it. */
  closeAnswer: () => void;
  /**
   * Drawn like chat (the REPL, `/run`, `zhi -c` in a terminal): what a command printed under its
   * line, a call that was not run without a reason on its line, a blank line before the closing line.
   */
  chat: boolean;
  /** One question and done: "Interrupted." and advice name flags, not the REPL's slash commands. */
  oneShot: boolean;
  debug: boolean;
  cwd: string;
  /** Columns: tool lines are cut to them, a closing line shown live wraps at them. */
  width?: () => number;
  /** A folder run's progress redrawn in place on stderr (a terminal); without, one line per file. */
  liveFolder?: { raw: (text: string) => void; columns: () => number };
}

export class RunText {
  /** Who answered, the skill's model, the last error. */
  readonly facts = new RunFacts();
  /** The answer of the last turn as it streamed (written at the end if the result has none). */
  private answerSoFar = '';
  /** The progress of a folder run (files at once, resumable). */
  private folder: FolderProgress | undefined;
  /** The skill line is shown once, for the skill the person ran (its nested skills come as 'nested'). */
  private skillShown = false;
  /** Tool calls that were not run (denied or refused): their line says so, not the model's note. */
  private readonly notRun = new Set<string>();

  constructor(private readonly o: RunTextOptions) {}

  /** Did a folder run's progress pass here (its answers are shown whole at the end)? */
  get folderRun(): boolean {
    return this.folder !== undefined;
  }

  /**
   * Note an event (safe already: it passed `safeEvent`) and write its lines if it is a line about
   * the run; false for the events the host draws live (or ignores).
   */
  handle(ev: RunEvent): ev is RunLineEvent {
    this.facts.note(ev);
    if (ev.type === 'turn_start') this.answerSoFar = '';
    else if (ev.type === 'text_delta') this.answerSoFar += ev.text;
    if (!isRunLine(ev)) return false;
    if (isFolderEvent(ev)) this.folderEvent(ev);
    else this.lineEvent(ev);
    return true;
  }

  private lineEvent(ev: Exclude<RunLineEvent, FolderEvent>): void {
    const { ui } = this.o;
    switch (ev.type) {
      case 'skill_start':
        if (!this.skillShown) this.o.line(ui.dim(t('skills.running', { name: ev.skill, model: ev.model })));
        this.skillShown = true;
        return;
      case 'skill_step':
        this.o.closeAnswer();
        this.o.line(`[${ev.index + 1}/${ev.total}] ${visible(ev.label)}`);
        return;
      case 'skill_ocr':
      case 'skill_asr':
      case 'skill_kept':
        this.o.line(ui.dim(skillNote(ev)));
        return;
      case 'nested':
        for (const l of nestedLines(ev.chain, ev.event, ui)) this.o.line(l);
        return;
      case 'tool_end':
        this.toolEnd(ev);
        return;
      case 'permission':
        if (ev.decision !== 'allowed' && this.o.chat) this.notRun.add(ev.id);
        this.warn(permissionText(ev));
        return;
      case 'retry':
        this.warn(retryText(ev));
        return;
      case 'warning':
        this.o.closeAnswer();
        this.warn(ev.message);
        return;
      default:
        exhaustive(ev);
    }
  }

  private toolEnd(ev: Extract<RunEvent, { type: 'tool_end' }>): void {
    const { ui, width } = this.o;
    const notRun = this.notRun.delete(ev.id);
    this.o.line(toolLine(ev, ui, { notRun, ...(width ? { width: width() } : {}) }));
    // What a command printed is the person's to see too (in chat): the first lines, the rest folded.
    const output =
      this.o.chat && traitsOf(ev.name).showsOutput && commandRan(ev.result)
        ? shownOutput(ev.result, (l) => ui.dim(l))
        : undefined;
    if (output) this.o.line(output);
  }

  private folderEvent(ev: FolderEvent): void {
    this.o.closeAnswer();
    if (ev.type === 'long_document') {
      for (const l of longDocumentLines(ev, this.o.ui)) this.o.line(l);
      return;
    }
    const live = this.o.liveFolder;
    this.folder ??= new FolderProgress({
      err: this.o.ui,
      live: live !== undefined,
      line: (text) => this.o.line(text),
      raw: live?.raw ?? (() => {}),
      ...(live ? { columns: live.columns } : {}),
    });
    this.folder.handle(ev);
  }

  private warn(text: string | undefined): void {
    if (text) this.o.line(formatWarning(text, this.o.ui));
  }

  /**
   * The run is over. Unless the answer was shown live, it is written once (what the result says,
   * else what the last turn streamed); then the error panel, "Interrupted." or the closing line.
   */
  finish(result: AgentResult, usage: UsageTracker, durationMs: number, o: { live: boolean }): void {
    if (!o.live) {
      // A pipe (`| cat`, `| less -R`) shows escape sequences as a terminal would: an answer never
      // needs one, so it is shown like the streamed one.
      const text = visible(result.text, { keepNewlines: true, keepTabs: true }) || this.answerSoFar;
      if (text.trim()) this.o.answer(text.endsWith('\n') ? text : `${text}\n`);
    }
    const error = result.error ?? this.facts.lastError;
    const { width } = this.o;
    const end = endText(result, usage, durationMs, {
      ui: this.o.ui,
      ...(error ? { error } : {}),
      debug: this.o.debug,
      oneShot: this.o.oneShot,
      cwd: this.o.cwd,
      gap: this.o.chat,
      // On a terminal the closing line wraps at its words; written once, it stays one line.
      ...(o.live && width ? { width: width() } : {}),
    });
    if (end) this.o.line(end);
  }
}
