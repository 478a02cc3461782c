/**
 * Text a PDF draws where a person reading it cannot see it (issue 37): white, fully transparent,
 * invisible (text render mode 3 or 7) or smaller than a point. Found from pdf.js's operator list
 * of a page — the drawing state (fill colour, alpha, render mode, font size and scale) walked
 * through save/restore — and labelled where it stands in the page's text, as Word's hidden runs are.
 *
 * Invisible text on a page that also paints an image is a scan's OCR layer (the person sees the
 * same words in the picture), so it is not reported.
 */
import type { HiddenPart } from './types.js';
import { hiddenLabel } from './types.js';

/** pdf.js operator codes (OPS in pdfjs-dist) this walk follows. */
const OP = {
  setGState: 9,
  save: 10,
  restore: 11,
  transform: 12,
  beginText: 31,
  setFont: 37,
  setTextRenderingMode: 38,
  setTextMatrix: 42,
  showText: 44,
  showSpacedText: 45,
  nextLineShowText: 46,
  nextLineSetSpacingShowText: 47,
  setFillRGBColor: 59,
} as const;
const IMAGE_OPS = new Set([83, 84, 85, 86, 87, 88, 89]);
const SHOW_OPS = new Set<number>([
  OP.showText,
  OP.showSpacedText,
  OP.nextLineShowText,
  OP.nextLineSetSpacingShowText,
]);

/** Text smaller than this (in points, after every scale) is not read by a person. */
const TINY_POINTS = 1;
/** Passages shorter than this many visible characters are not worth a label. */
const MIN_CHARS = 4;

export interface OperatorList {
  fnArray: ArrayLike<number>;
  argsArray: ArrayLike<unknown>;
}

interface DrawState {
  fill: string;
  alpha: number;
  mode: number;
  fontSize: number;
  ctmScale: number;
}

type Kind = 'white' | 'vanish' | 'tiny';

/** The six numbers of a matrix argument, given as six arguments or as one array. */
function matrixOf(args: unknown): number[] {
  const a = Array.isArray(args) ? args : [];
  const m =
    a.length === 1 && typeof a[0] === 'object' && a[0] !== null ? Array.from(a[0] as ArrayLike<number>) : a;
  return m.map(Number);
}

/** The vertical scale of a matrix (how tall a glyph of size 1 is drawn). */
function scaleOf(m: number[]): number {
  const [, , c = 0, d = 1] = m;
  return Math.hypot(c, d) || 1;
}

/** The characters a show-text operator draws (pdf.js glyph objects; big negative kerns are spaces). */
function glyphText(args: unknown): string {
  const list = Array.isArray(args) ? args.find((a) => Array.isArray(a)) : undefined;
  if (!Array.isArray(list)) return '';
  let out = '';
  for (const g of list) {
    if (typeof g === 'number') {
      if (g < -200) out += ' ';
    } else if (g && typeof g === 'object' && 'unicode' in g)
      out += String((g as { unicode: unknown }).unicode ?? '');
  }
  return out;
}

function isWhite(hex: string): boolean {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  return !!m && [m[1], m[2], m[3]].every((h) => Number.parseInt(h as string, 16) >= 0xf2);
}

function kindOf(s: DrawState, textScale: number, ocrLayer: boolean): Kind | undefined {
  if (s.alpha <= 0.02 || ((s.mode === 3 || s.mode === 7) && !ocrLayer)) return 'vanish';
  // Modes 1, 2, 5, 6 stroke the glyphs; white fill does not hide a stroked outline.
  if ((s.mode === 0 || s.mode === 4) && isWhite(s.fill)) return 'white';
  if (Math.abs(s.fontSize) * textScale * s.ctmScale < TINY_POINTS) return 'tiny';
  return undefined;
}

/** A graphics-state dictionary's fill alpha (`/ca`), when it sets one. */
function fillAlphaOf(args: unknown): number | undefined {
  const pairs = Array.isArray(args) ? args[0] : undefined;
  if (!Array.isArray(pairs)) return undefined;
  const ca = pairs.find((p) => Array.isArray(p) && p[0] === 'ca');
  return Array.isArray(ca) && typeof ca[1] === 'number' ? ca[1] : undefined;
}

/** Passages of a page's text that its reader does not see, in drawing order. */
export function hiddenPassages(ops: OperatorList): HiddenPart[] {
  const fns = Array.from(ops.fnArray);
  const ocrLayer = fns.some((f) => IMAGE_OPS.has(f));
  const stack: DrawState[] = [];
  let s: DrawState = { fill: '#000000', alpha: 1, mode: 0, fontSize: 12, ctmScale: 1 };
  let textScale = 1;
  const out: HiddenPart[] = [];
  let open: HiddenPart | undefined;
  for (let i = 0; i < fns.length; i++) {
    const fn = fns[i];
    const args = ops.argsArray[i];
    if (fn === OP.save) stack.push({ ...s });
    else if (fn === OP.restore) s = stack.pop() ?? s;
    else if (fn === OP.transform) s.ctmScale *= scaleOf(matrixOf(args));
    else if (fn === OP.beginText) textScale = 1;
    else if (fn === OP.setTextMatrix) textScale = scaleOf(matrixOf(args));
    else if (fn === OP.setFont && Array.isArray(args)) s.fontSize = Number(args[1]) || 0;
    else if (fn === OP.setTextRenderingMode && Array.isArray(args)) s.mode = Number(args[0]) || 0;
    else if (fn === OP.setFillRGBColor && Array.isArray(args)) s.fill = String(args[0]);
    else if (fn === OP.setGState) s.alpha = fillAlphaOf(args) ?? s.alpha;
    else if (fn !== undefined && SHOW_OPS.has(fn)) {
      const kind = kindOf(s, textScale, ocrLayer);
      const text = glyphText(args);
      if (!kind) open = undefined;
      else if (open?.kind === kind) open.text += text;
      else {
        open = { kind, text };
        out.push(open);
      }
    }
  }
  return out.filter((p) => p.text.replace(/\s/g, '').length >= MIN_CHARS);
}

/** A pattern finding `passage` in laid-out text, whatever spaces or line breaks layout put between its characters. */
function looseMatch(passage: string): RegExp {
  const chars = [...passage.replace(/\s+/g, '')].map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(chars.join('\\s*'), 'u');
}

/**
 * The page's text with each hidden passage labelled where it stands (or, when layout moved it
 * out of reach, after the page's text), as the model is shown hidden Word runs.
 */
export function labelHidden(text: string, parts: readonly HiddenPart[]): string {
  let out = text;
  const after: string[] = [];
  for (const p of parts) {
    const label = (body: string) => `[${hiddenLabel(p)}, not shown in the document: ${body}]`;
    const m = looseMatch(p.text).exec(out);
    if (m) out = `${out.slice(0, m.index)}${label(m[0])}${out.slice(m.index + m[0].length)}`;
    else after.push(label(p.text.trim()));
  }
  return after.length ? `${out}\n\n${after.join('\n')}` : out;
}
