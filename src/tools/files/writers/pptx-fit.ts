/**
 * Slides that fit: each slide of the payload becomes one or more pages whose text and table fit
 * the 16:9 page, measured before anything is drawn. Text is set at 18 pt, then 16, then 14; what
 * still does not fit continues on a page titled "… (cont.)", and so does a table too long for one
 * page, with its header row repeated. The measure is an estimate from character widths (CJK
 * counts double), deliberately on the safe side.
 */

import { maxOf } from '../../../support/arrays.js';
import { textWidth } from '../../../support/width.js';
import type { Cell } from './payload.js';
import type { SlideSpec } from './pptx-spec.js';

/** One drawn slide: a part of a payload slide, with the font size its text fits at. */
export interface Page extends SlideSpec {
  fontSize: number;
  /** True for the pages after the first of one payload slide. */
  continued: boolean;
}

/** The page, in inches (16:9). */
export const PAGE = { w: 10, h: 5.625, margin: 0.5, bodyTop: 1.2, bottom: 0.4 };
const SIZES = [18, 16, 14];
const PARA_AFTER_PT = 6;
/** Text above a table takes at most this height. */
const TEXT_ABOVE_TABLE = 2;
const TABLE_PT = 12;

type Run = { text: string; level: number; bullet: boolean };

/** Lines a paragraph takes in a box `width` inches wide at `pt` points (a character is ~0.5 em per width unit). */
function lines(text: string, indent: number, width: number, pt: number): number {
  const perLine = Math.max(4, Math.floor(((width - indent) * 72) / (pt * 0.5)) - 1);
  return text.split('\n').reduce((n, l) => n + Math.max(1, Math.ceil(textWidth(l) / perLine)), 0);
}

function runHeight(r: Run, width: number, pt: number): number {
  const indent = r.bullet ? 0.35 + r.level * 0.4 : 0;
  return (lines(r.text, indent, width, pt) * pt * 1.2 + PARA_AFTER_PT) / 72;
}

function runsOf(s: SlideSpec): Run[] {
  return [
    ...s.text.map((text) => ({ text, level: 0, bullet: false })),
    ...s.bullets.map((b) => ({ text: b.text, level: b.level, bullet: true })),
  ];
}

/** Text runs split into groups that each fit `height`, at the largest size that needs fewest groups. */
function fitText(runs: Run[], width: number, height: number): { size: number; groups: Run[][] } {
  for (const size of SIZES) {
    const total = runs.reduce((h, r) => h + runHeight(r, width, size), 0);
    if (total <= height) return { size, groups: [runs] };
  }
  const size = SIZES[SIZES.length - 1]!;
  const greedy = group(runs, width, size, height);
  // Even pages (8 + 7, not 12 + 3): fill each to the average, if that needs no extra page.
  const total = runs.reduce((h, r) => h + runHeight(r, width, size), 0);
  const even = group(runs, width, size, height, total / greedy.length);
  return { size, groups: even.length === greedy.length ? even : greedy };
}

/** Runs into pages of at most `height`; with `enough`, a page also ends once it holds that much. */
function group(runs: Run[], width: number, size: number, height: number, enough = Infinity): Run[][] {
  const groups: Run[][] = [[]];
  let used = 0;
  runs.forEach((r, i) => {
    const h = runHeight(r, width, size);
    if (used + h > height && groups[groups.length - 1]!.length) {
      groups.push([]);
      used = 0;
    }
    groups[groups.length - 1]!.push(r);
    used += h;
    if (used >= enough - 1e-9 && i < runs.length - 1) {
      groups.push([]);
      used = 0;
    }
  });
  return groups;
}

/** Height of a table row at 12 pt, with columns of equal width. */
function rowHeight(cells: Cell[], cols: number, width: number): number {
  const colW = width / Math.max(1, cols);
  let most = 1;
  for (const c of cells) most = Math.max(most, lines(c === null ? '' : String(c), 0.1, colW, TABLE_PT));
  return (most * TABLE_PT * 1.2) / 72 + 0.12;
}

/** Table rows split into pages: the first page has `firstHeight` for the table, the rest a whole body. */
function fitTable(table: NonNullable<SlideSpec['table']>, width: number, firstHeight: number): Cell[][][] {
  const cols = maxOf(
    table.rows.slice(0, 200).map((r) => r.length),
    table.headers.length,
  );
  const head = table.headers.length ? rowHeight(table.headers, cols, width) : 0;
  const full = PAGE.h - PAGE.bodyTop - PAGE.bottom;
  const pages: Cell[][][] = [[]];
  let room = firstHeight - head;
  for (const row of table.rows) {
    const h = rowHeight(row, cols, width);
    if (h > room && pages[pages.length - 1]!.length) {
      pages.push([]);
      room = full - head;
    }
    pages[pages.length - 1]!.push(row);
    room -= h;
  }
  return pages;
}

function bodyOf(runs: Run[]): Pick<SlideSpec, 'text' | 'bullets'> {
  return {
    text: runs.filter((r) => !r.bullet).map((r) => r.text),
    bullets: runs.filter((r) => r.bullet).map((r) => ({ text: r.text, level: r.level })),
  };
}

/** The pages one payload slide needs. */
function paginate(s: SlideSpec): Page[] {
  const runs = runsOf(s);
  if (!runs.length && !s.table) return [{ ...s, fontSize: 18, continued: false }];
  const width = s.image ? 4.6 : PAGE.w - 2 * PAGE.margin;
  const body = PAGE.h - PAGE.bodyTop - PAGE.bottom;
  const text = runs.length
    ? fitText(runs, width, s.table ? TEXT_ABOVE_TABLE : body)
    : { size: 18, groups: [] };
  const pages: Page[] = text.groups.map((g, i) => ({
    title: s.title,
    ...bodyOf(g),
    notes: i === 0 ? s.notes : '',
    ...(i === 0 && s.image ? { image: s.image } : {}),
    fontSize: text.size,
    continued: i > 0,
  }));
  if (s.table) {
    const last = pages[pages.length - 1];
    const textHeight = last
      ? Math.min(
          TEXT_ABOVE_TABLE,
          runsOf(last).reduce((h, r) => h + runHeight(r, width, text.size), 0.2),
        ) + 0.1
      : 0;
    const parts = fitTable(s.table, width, body - textHeight);
    parts.forEach((rows, i) => {
      const table = { headers: s.table!.headers, rows };
      if (i === 0 && last) last.table = table;
      else
        pages.push({
          title: s.title,
          bullets: [],
          text: [],
          notes: pages.length ? '' : s.notes,
          ...(pages.length === 0 && s.image ? { image: s.image } : {}),
          table,
          fontSize: text.size,
          continued: pages.length > 0,
        });
    });
  }
  return pages;
}

/** Every payload slide as the pages it needs. */
export function fitSlides(slides: SlideSpec[]): Page[] {
  return slides.flatMap(paginate);
}

/** The largest title size whose lines fit the title box (one line on a content slide, two on a cover). */
export function titleSize(title: string, cover: boolean): number {
  const sizes = cover ? [36, 32, 28, 24] : [28, 24, 20];
  const box = (cover ? 1.2 : 0.8) - 0.1; // less the box's own insets
  for (const pt of sizes) if ((lines(title, 0, 9, pt) * pt * 1.2) / 72 <= box) return pt;
  return sizes[sizes.length - 1]!;
}
