/**
 * The output boundary for run events: every string an event carries came from the model, a file,
 * a tool or the API, so before a renderer shows it on the terminal it passes `visible()` — escape
 * sequences and control characters are shown, never executed, and only zhi's own styling reaches
 * the terminal. Answers and reasoning keep their line breaks and tabs; one-line fields (labels,
 * tool names, reasons) show a line break as `↵` so a label cannot push text onto a new line.
 * JSON output does not pass here: JSON.stringify escapes control characters itself.
 */
import { visible } from '../../support/sanitize.js';

const MULTI_LINE = new Set(['text', 'message', 'result']);

/** A copy of the event with every top-level string made visible (`type` and `id` are zhi's). */
export function safeEvent<E extends { type: string }>(ev: E): E {
  let copy: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(ev)) {
    if (typeof value !== 'string' || key === 'type' || key === 'id') continue;
    const multi = MULTI_LINE.has(key);
    const shown = visible(value, { keepNewlines: multi, keepTabs: multi });
    if (shown === value) continue;
    copy ??= { ...ev };
    copy[key] = shown;
  }
  const retry = (ev as { error?: { message?: unknown } }).error;
  if (ev.type === 'retry' && retry && typeof retry.message === 'string') {
    copy ??= { ...ev };
    copy.error = { ...retry, message: visible(retry.message) };
  }
  return (copy ?? ev) as E;
}
