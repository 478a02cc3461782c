import { relative } from 'node:path';
import type { AgentResult } from '../../agent/events.js';
import { formatCost } from '../../llm/models.js';
import type { UsageTracker } from '../../llm/usage.js';
import type { ZhiError } from '../../support/errors.js';
import { t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';
import { formatBytes } from '../../support/text.js';
import { formatError, formatWarning } from './error.js';
import type { Style } from './style.js';
import { wrapText } from './width.js';

export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)}k`;
  return `${(n / 1_000_000).toFixed(2)}M`;
}

export function formatDuration(ms: number): string {
  return ms < 60_000
    ? `${(ms / 1000).toFixed(1)}s`
    : `${Math.floor(ms / 60_000)}m${Math.round((ms % 60_000) / 1000)}s`;
}

/** `Done: 2 files read, 1 written · 3 tools · 8.2k tokens · ¥0.01 · 4.5s` */
export function doneLine(result: AgentResult, usage: UsageTracker, durationMs: number): string {
  const parts: string[] = [];
  if (result.filesRead || result.filesWritten.length) {
    const key = result.filesRead === 1 ? 'render.fileRead' : 'render.files';
    parts.push(t(key, { read: result.filesRead, written: result.filesWritten.length }));
  }
  if (result.toolCalls)
    parts.push(t(result.toolCalls === 1 ? 'render.tool' : 'render.tools', { n: result.toolCalls }));
  parts.push(t('render.tokens', { n: formatTokens(usage.total().totalTokens) }));
  const cost = usage.cost();
  parts.push(cost.covered ? t('render.covered') : formatCost(cost));
  parts.push(formatDuration(durationMs));
  return t('render.doneLine', { parts: parts.join(' · ') });
}

/** Files written, each on a line; past this many, the first few and how many more (a folder run of thousands). */
const FILE_LINES = 10;
const FILE_LINES_CUT = 3;

export function fileLines(result: AgentResult, cwd: string): string[] {
  const all = result.filesWritten;
  const shown = all.length > FILE_LINES ? all.slice(0, FILE_LINES_CUT) : all;
  const lines = shown.map((f) => `  → ${visible(relative(cwd, f.path) || f.path)} (${formatBytes(f.bytes)})`);
  if (all.length > shown.length)
    lines.push(`  ${t('render.filesMore', { count: all.length - shown.length })}`);
  return lines;
}

/**
 * What closes a run: the error panel (the run did not answer), "Interrupted." or the closing line
 * with the files written, after a blank line when `gap` (drawn like chat). `width` wraps the
 * closing line at its words (`≈¥0.0033` stays whole); without it the line is left as it is.
 */
export function endText(
  result: AgentResult,
  usage: UsageTracker,
  durationMs: number,
  o: {
    ui: Style;
    error?: ZhiError;
    debug: boolean;
    oneShot: boolean;
    cwd: string;
    gap: boolean;
    width?: number;
  },
): string {
  if (o.error && result.stopReason !== 'answer')
    return formatError(o.error, o.ui, { debug: o.debug, inRepl: !o.oneShot });
  if (result.stopReason === 'aborted')
    return formatWarning(t(o.oneShot ? 'cli.interrupted' : 'repl.interrupted'), o.ui);
  // An estimate sent nothing and wrote nothing: no closing line to say so.
  if (result.estimate) return '';
  const line = doneLine(result, usage, durationMs);
  const shown = o.ui.enabled ? o.ui.dim(line) : t('cli.tag.done', { line });
  const done = o.width === undefined ? [shown] : wrapText(shown, o.width, '', '  ');
  return [...(o.gap ? [''] : []), ...done, ...fileLines(result, o.cwd)].join('\n');
}
