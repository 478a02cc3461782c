import { pushAll } from '../../support/arrays.js';
import type { ZhiError } from '../../support/errors.js';
import { t } from '../../support/i18n/index.js';
import { redact } from '../../support/redact.js';
import { visible } from '../../support/sanitize.js';
import { textWidth } from '../../support/width.js';
import { adviceFor } from '../advice.js';
import type { Style } from './style.js';
import { stderrColumns, wrapText } from './width.js';

const KEEP = { keepNewlines: true, keepTabs: true };

/**
 * An error as a person reads it: what happened, why, what to try. With colour it is a red panel;
 * without, plain lines prefixed with [ERROR]. The stack trace only with --debug.
 */
export interface ErrorView {
  /** --debug: the stack trace too. */
  debug?: boolean | undefined;
  /** Columns to wrap to (stderr's by default). */
  width?: number | undefined;
  /** Read inside the REPL: advice names the slash command (/model), not the flag (--model). */
  inRepl?: boolean | undefined;
}

export function formatError(err: ZhiError, style: Style, view: ErrorView = {}): string {
  const { debug = false, width = stderrColumns(), inRepl = false } = view;
  const lines: string[] = [];
  // Each line wraps to the window at word (or CJK) boundaries, under its own indent; only the
  // first line of a text carries its label ("Reason:"), the others (a skill's usage) are indented.
  const push = (first: string, text: string, rest: string) => {
    for (const [i, part] of text.split('\n').entries())
      pushAll(lines, wrapText(part, width && width - 1, i === 0 ? first : rest, rest));
  };
  // Error texts quote the API, files and paths: shown, never executed.
  const what = visible(err.whatText(), KEEP);
  const why = visible(err.whyText() ?? '', KEEP);
  const tries = adviceFor(err, process.env, inRepl).map((x) => visible(x, KEEP));
  if (style.enabled) {
    push(style.red(style.bold(`✖ ${t('cli.errorLabel')}`)), style.bold(what), '  ');
    if (why) push(`  ${style.dim(t('cli.reasonLabel'))}`, why, '    ');
    if (tries.length) {
      lines.push(`  ${style.dim(t('cli.tryLabel'))}`);
      for (const [i, x] of tries.entries()) push(`    ${i + 1}. `, x, '       ');
    }
  } else {
    push(t('cli.tag.error'), what, '  ');
    if (why) push(`  ${t('cli.reasonLabel')}`, why, '    ');
    if (tries.length) {
      lines.push(`  ${t('cli.tryLabel')}`);
      for (const [i, x] of tries.entries()) push(`    ${i + 1}. `, x, '       ');
    }
  }
  if (debug) {
    const cause = err.cause instanceof Error ? err.cause : err;
    if (cause.stack) lines.push(style.dim(cause.stack));
  }
  // An error may quote a URL with credentials, a header, or the key itself: never shown.
  return `${redact(lines.join('\n'))}\n`;
}

export function formatWarning(message: string, style: Style, width = stderrColumns()): string {
  // Shown, never executed; and never a secret.
  const text = redact(visible(message, KEEP));
  const mark = style.enabled ? `${style.yellow('⚠')} ` : t('cli.tag.warn');
  const indent = style.enabled ? '  ' : ' '.repeat(textWidth(mark));
  const lines = text
    .split('\n')
    .flatMap((part, i) => wrapText(part, width && width - 1, i === 0 ? mark : indent, indent));
  return `${lines.join('\n')}\n`;
}

/** The JSON shape of a failure for --output-format json (design §2). */
export function errorJson(err: ZhiError): {
  error: { code: string; message: string; suggestions: string[] };
} {
  const why = err.whyText();
  return {
    error: {
      code: err.kind,
      message: redact(why ? `${err.whatText()} ${why}` : err.whatText()),
      suggestions: adviceFor(err).map(redact),
    },
  };
}
