/**
 * Content a document hides from the person reading it, found by the readers: comments in text a
 * person sees rendered (HTML, Markdown, SVG), here; Word's hidden and white runs in docx-body.ts;
 * hidden sheets in xlsx.ts. The model is shown it labelled as hidden (file_read), and the person
 * is warned when it reads like an instruction.
 */
import { t } from '../../../support/i18n/index.js';
import { visible } from '../../../support/sanitize.js';
import { looksLikeInstructions } from '../../../support/untrusted.js';
import type { HiddenPart } from './types.js';

/** File kinds whose comments a person never sees when the file is shown (rendered). */
const COMMENTED = new Set([
  '.md',
  '.markdown',
  '.mdx',
  '.html',
  '.htm',
  '.xhtml',
  '.svg',
  '.xml',
  '.txt',
  '',
]);

/** HTML comments (`<!-- … -->`) and Markdown's `[//]: # (…)` in a page of text. */
export function commentsIn(text: string, ext: string): HiddenPart[] {
  if (!COMMENTED.has(ext)) return [];
  const out: HiddenPart[] = [];
  for (const m of text.matchAll(/<!--([\s\S]*?)(?:-->|$)/g)) {
    const body = m[1]!.trim();
    if (body) out.push({ kind: 'comment', text: body });
  }
  for (const m of text.matchAll(/^\[[^\]\n]*\]:\s*#\s*[("'](.*)[)"']\s*$/gm)) {
    const body = m[1]!.trim();
    if (body) out.push({ kind: 'comment', text: body });
  }
  return out;
}

/**
 * The warning a person reads when a document hides text that reads like an instruction to the
 * model (a URL, "ignore previous…", "send … to"): which file, what hid it, and the text itself
 * (sanitized, cut). Undefined when nothing hidden looks like that.
 */
export function hiddenWarning(file: string, parts: readonly HiddenPart[]): string | undefined {
  const suspicious = parts.filter((p) => looksLikeInstructions(p.text));
  if (!suspicious.length) return undefined;
  const first = suspicious[0]!;
  const text = first.text.replace(/\s+/g, ' ').trim();
  const what = t(`safety.hidden.${first.kind}`, { sheet: visible(first.sheet ?? '') });
  return t('safety.hidden.instructions', {
    file: visible(file),
    what,
    text: visible(text.length > 200 ? `${text.slice(0, 200)}…` : text),
  });
}
