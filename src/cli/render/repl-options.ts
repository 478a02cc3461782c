import type { Terminal } from './screen.js';
import type { Style } from './style.js';

/**
 * How the REPL shows a run:
 * - rich: a terminal with colour — Markdown rendered as it streams (finished blocks printed once,
 *   only the unfinished block redrawn), a spinner with elapsed time, live tool lines;
 * - plain: a terminal without colour (NO_COLOR, --no-color) — no escape codes at all: each block
 *   printed once when finished, `[TOOL]`/`[DONE]`/`[ERROR]` prefixes;
 * - pipe: stdout is not a terminal — the answer is written to stdout as plain text when complete,
 *   progress goes to stderr.
 */
export type RenderMode = 'rich' | 'plain' | 'pipe';

export interface ReplRendererOptions {
  mode: RenderMode;
  /** The terminal the answer goes to (stdout). In rich mode everything is drawn there. */
  term: Terminal;
  /** Styles of stdout and stderr (colour only where enabled). */
  out: Style;
  err: Style;
  stderr: (s: string) => void;
  /** Show the whole reasoning (true) or a collapsing three-line window (false). */
  verbose: () => boolean;
  debug: boolean;
  cwd: string;
  now?: () => number;
  /** Animate the spinner (off in tests). */
  animate?: boolean;
  /** One question and done (`zhi -c`): an interruption ends the run, there is no next message. */
  oneShot?: boolean;
}
