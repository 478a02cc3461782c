/**
 * The REPL's live area under the answer: the thinking spinner and window, the unfinished
 * Markdown block, one line per running tool, the waiting spinner and the text typed ahead.
 * A pure function of the renderer's state, redrawn on every frame.
 */

import { pushAll } from '../../support/arrays.js';
import { t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';
import type { Style } from './style.js';
import type { ThinkingText } from './thinking.js';
import { callText } from './tool-names.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface RunningTool {
  index: number;
  total: number;
  name: string;
  label: string;
  started: number;
  note?: string;
}

export interface LiveState {
  ui: Style;
  /** The spinner frame counter. */
  frame: number;
  now: number;
  /** The whole reasoning is shown (no thinking spinner). */
  verbose: boolean;
  thinking: ThinkingText | undefined;
  thinkingLive: string[];
  mdLive: string[];
  tools: Iterable<RunningTool>;
  waiting: { text: string; since: number } | undefined;
  typeahead: string;
}

export function liveLines(s: LiveState): string[] {
  const { ui } = s;
  const frame = FRAMES[s.frame % FRAMES.length]!;
  const secs = (since: number) => ((s.now - since) / 1000).toFixed(1);
  const lines: string[] = [];
  if (s.thinking && !s.thinking.empty) {
    if (!s.verbose)
      lines.push(`${ui.cyan(frame)} ${ui.dim(`${t('cli.thinking')} ${secs(s.thinking.started)}s`)}`);
    pushAll(lines, s.thinkingLive);
  }
  pushAll(lines, s.mdLive);
  for (const tool of s.tools) {
    const note = tool.note ? ` ${ui.dim(tool.note)}` : '';
    lines.push(
      `${ui.cyan(frame)} ${ui.dim(`[${tool.index + 1}/${tool.total}]`)} ${callText(tool.name, visible(tool.label))} … ${ui.dim(`${secs(tool.started)}s`)}${note}`,
    );
  }
  if (s.waiting) lines.push(`${ui.cyan(frame)} ${ui.dim(`${s.waiting.text} ${secs(s.waiting.since)}s`)}`);
  if (s.typeahead) lines.push(ui.dim(`› ${visible(s.typeahead)}`));
  return lines;
}
