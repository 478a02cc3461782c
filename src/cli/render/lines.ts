/**
 * The lines every renderer of the run's event stream shows the same way: the tool line, the
 * permission line, the retry line, the lines of a nested skill run, and the done line. Pure
 * functions of an event and a style; `RunText` (run-text.ts) decides when each is written, for
 * the text format and the REPL renderer alike. Text that came from the model or a file passes `visible()`.
 */

import { type AgentEvent, isFolderEvent, type RunEvent } from '../../agent/events.js';
import { exhaustive } from '../../support/exhaustive.js';
import { t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';
import { cutToWidth, textWidth } from '../../support/width.js';
import { formatWarning } from './error.js';
import type { Style } from './style.js';
import { formatDuration } from './summary.js';
import { toolFailureText } from './tool-failure.js';
import { callText, toolTitle } from './tool-names.js';
import { wrapText } from './width.js';

export { doneLine, fileLines } from './summary.js';

type ToolEnd = Extract<AgentEvent, { type: 'tool_end' }>;
type Permission = Extract<AgentEvent, { type: 'permission' }>;
type Retry = Extract<AgentEvent, { type: 'retry' }>;

export interface ToolLineOptions {
  /** The call was denied or refused: its own line said why, so no duration or reason here. */
  notRun?: boolean;
  /** Columns available (the reason of a failure is cut to fit). */
  width?: number;
  /** Lines of a nested run go without the `[TOOL] [1/2]` head (their skill's name stands there). */
  nested?: boolean;
}

/** `[1/2] Read text in report.pdf … ✓ 1.2s` or `[2/2] 写入 out.xlsx … ✗ 0.1s 磁盘已满`. */
export function toolLine(ev: ToolEnd, st: Style, o: ToolLineOptions = {}): string {
  const mark = ev.ok ? st.green('✓') : st.red('✗');
  const prefix = st.enabled || o.nested ? '' : t('cli.tag.tool');
  const counter = o.nested ? '' : `${st.dim(`[${ev.index + 1}/${ev.total}]`)} `;
  const tail = o.notRun ? ` … ${mark}` : ` … ${mark} ${st.dim(formatDuration(ev.durationMs))}`;
  // A long label (a path, a command) is cut to the window, so the terminal never breaks the line
  // inside a word; one column is left, as consoles that wrap at the last column need.
  const room =
    o.width === undefined ? Number.POSITIVE_INFINITY : o.width - 1 - textWidth(prefix + counter + tail);
  const line = `${prefix}${counter}${cutToWidth(callText(ev.name, visible(ev.label)), Math.max(room, 12))}${tail}`;
  if (o.notRun) return line;
  const below = o.width === undefined ? 160 : o.width - 5;
  // What the tool wants the person to see under its line (a search's sources), from outside: sanitized.
  const extra = (ev.display ?? []).map((x) => `\n    ${st.dim(cutToWidth(visible(x), below))}`).join('');
  return `${line}${failureReason(ev, st, line, o.width)}${extra}`;
}

/**
 * Why the tool failed, after its line when it fits there, else on lines of its own under it,
 * wrapped at words: never cut, since its end is often the advice ("…approve it with w").
 */
function failureReason(ev: ToolEnd, st: Style, line: string, width: number | undefined): string {
  if (ev.ok) return '';
  // The tool's words are for the model: the person gets them in their language (tool-failure.ts).
  const reason = visible(toolFailureText(ev.result));
  if (width === undefined || textWidth(line) + 1 + textWidth(reason) <= width - 1)
    return ` ${st.dim(reason)}`;
  return wrapText(reason, width - 1, '    ', '    ')
    .map((l) => `\n${st.dim(l)}`)
    .join('');
}

/** What a person reads when a tool call was not run: always in their language, never the model's note. */
export function permissionText(ev: Permission): string | undefined {
  if (ev.decision === 'denied') {
    const name = toolTitle(ev.name);
    if (ev.code === 'no_terminal') return t('render.deniedNoTerminal', { name });
    // Already in the person's language, its parameters sanitized by the loop.
    if (ev.notice) return ev.notice;
    return ev.reason
      ? t('render.denied', { name, reason: visible(ev.reason) })
      : t('render.deniedByUser', { name });
  }
  if (ev.decision === 'refused')
    return ev.notice ?? t('render.refused', { name: toolTitle(ev.name), reason: visible(ev.reason ?? '') });
  return undefined;
}

/** `Retrying in 2.0s (429 …), attempt 1 of 3`. */
export function retryText(ev: Retry): string {
  // A connection that failed is not something "the API said": say it in plain words.
  if (ev.error.kind === 'network' || ev.error.kind === 'timeout') {
    return t('input.retryNetwork', {
      reason: networkReason(`${ev.error.code ?? ''} ${ev.error.message}`, ev.error.kind),
      seconds: (ev.delayMs / 1000).toFixed(1),
      attempt: ev.attempt,
      max: ev.maxRetries,
    });
  }
  return t('cli.retrying', {
    reason: visible(ev.error.code ? `${ev.error.message} (${ev.error.code})` : ev.error.message),
    seconds: (ev.delayMs / 1000).toFixed(1),
    attempt: ev.attempt,
    max: ev.maxRetries,
  });
}

/** A socket error code (ECONNREFUSED…) in words a person understands. */
export function networkReason(text: string, kind: string): string {
  if (/ECONNREFUSED/.test(text)) return t('input.net.refused');
  if (/ENOTFOUND|EAI_AGAIN/.test(text)) return t('input.net.notFound');
  if (/ECONNRESET|EPIPE|socket hang up/i.test(text)) return t('input.net.reset');
  if (kind === 'timeout' || /ETIMEDOUT|timed? ?out/i.test(text)) return t('input.net.timeout');
  return t('input.net.other');
}

/**
 * The lines of an event of a nested skill run (a composite's step, a per-file step), indented
 * under the chain. Events a person need not see (deltas, messages, usage) give none.
 */
export function nestedLines(chain: readonly string[], ev: RunEvent, st: Style): string[] {
  const indent = '  '.repeat(Math.max(1, chain.length - 1));
  const who = chain[chain.length - 1] ?? '';
  const warn = (text: string) => [formatWarning(text, st).trimEnd()];
  if (isFolderEvent(ev)) return [];
  switch (ev.type) {
    case 'skill_start': {
      const arrow = st.enabled ? '↳' : '>';
      return [
        st.dim(`${indent}${arrow} ${t('skills.nested', { chain: chain.join(' › '), model: ev.model })}`),
      ];
    }
    case 'skill_step':
      return [`${indent}  [${ev.index + 1}/${ev.total}] ${visible(ev.label)}`];
    case 'skill_ocr':
    case 'skill_asr':
      return [st.dim(`${indent}  ${who}: ${skillNote(ev)}`)];
    case 'skill_kept':
      return [st.dim(`${indent}  ${skillNote(ev)}`)];
    case 'tool_end':
      return [`${indent}  ${st.dim(`${who}:`)} ${toolLine(ev, st, { nested: true })}`];
    case 'permission': {
      const text = permissionText(ev);
      return text ? warn(text) : [];
    }
    case 'warning':
      return warn(`${who}: ${visible(ev.message)}`);
    case 'error':
      return warn(`${who}: ${ev.error.whatText()}`);
    case 'turn_start':
    case 'text_delta':
    case 'thinking_delta':
    case 'retry':
    case 'message':
    case 'tool_start':
    case 'progress':
    case 'usage':
    case 'done':
    case 'user':
    case 'nested':
    case 'tool_call_writing':
      return [];
    default:
      exhaustive(ev);
      return [];
  }
}

/** What a skill run is doing besides its turns: reading a scan, transcribing, using kept results. */
export function skillNote(ev: Extract<RunEvent, { type: 'skill_ocr' | 'skill_asr' | 'skill_kept' }>): string {
  if (ev.type === 'skill_kept') return t('skills.kept', { count: ev.count, total: ev.total });
  return t(ev.type === 'skill_ocr' ? 'skills.ocr' : 'skills.asr', { file: visible(ev.file) });
}
