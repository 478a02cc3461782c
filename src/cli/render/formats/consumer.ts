import { type AgentResult, isFolderEvent, type RunEvent } from '../../../agent/events.js';
import type { UsageTracker } from '../../../llm/usage.js';
import type { ZhiError } from '../../../support/errors.js';
import { exhaustive } from '../../../support/exhaustive.js';
import type { Style } from '../style.js';

/** What a consumer of a run's events for one-shot, pipe and `zhi run` is built with. */
export interface ConsumerOptions {
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
 * The consumer of one `--output-format`: it sees every event of a run, then its result. stdout
 * gets only the answer or the format's document; everything else goes to stderr.
 */
export interface RunConsumer {
  handle(ev: RunEvent): void;
  /** The answer, the error, the closing line or the document (`model`: the run's, if no call said). */
  finish(result: AgentResult, usage: UsageTracker, model: string, durationMs: number): void;
  /** The model of the skill the user ran (from its first `skill_start`). */
  readonly skillModel: string | undefined;
}

/** What every format needs to know about a run besides its result: who answered, the last error. */
export class RunFacts {
  /** The model of the last call (a turn with images goes to a vision model). */
  answeredBy: string | undefined;
  skillModel: string | undefined;
  lastError: ZhiError | undefined;
  /** Between a turn's start and its message (a usage event then is the turn's, not OCR's). */
  private inTurn = false;

  note(ev: RunEvent): void {
    if (isFolderEvent(ev)) return;
    switch (ev.type) {
      case 'turn_start':
        this.inTurn = true;
        break;
      case 'message':
        this.inTurn = false;
        break;
      case 'usage':
        if (this.inTurn) this.answeredBy = ev.model;
        break;
      case 'skill_start':
        this.skillModel ??= ev.model;
        break;
      case 'error':
        this.lastError = ev.error;
        break;
      case 'thinking_delta':
      case 'text_delta':
      case 'tool_start':
      case 'progress':
      case 'tool_end':
      case 'permission':
      case 'retry':
      case 'warning':
      case 'done':
      case 'user':
      case 'skill_step':
      case 'skill_kept':
      case 'skill_ocr':
      case 'skill_asr':
      case 'nested':
      case 'tool_call_writing':
        break;
      default:
        exhaustive(ev);
    }
  }
}
