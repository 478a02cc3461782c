/**
 * PowerPoint (.pptx) from a simple shape: `{"title"?, "slides": [{"title", "bullets"?, "text"?,
 * "table"?, "image"?, "notes"?}]}` or Markdown (a slide per `#`/`##` heading or `---`; `- `
 * bullets, `| tables |`, `![](image.png)`, and a `Notes:` line before the speaker notes).
 * Built with pptxgenjs (loaded on first use) on a 16:9 page; images come from the output folder
 * (the caller resolves them through the one containment check); text with Chinese in it gets
 * Microsoft YaHei and the zh-CN language.
 */
import { type Cell, PayloadError, parseIfJson, toTable } from './payload.js';
import { fitSlides, PAGE, type Page, titleSize } from './pptx-fit.js';
import type { SlideSpec } from './pptx-spec.js';

export type { SlideSpec } from './pptx-spec.js';

/** Reads an image named in the payload; throws a ToolError when it is outside the output folder. */
export type ImageLoader = (path: string) => Promise<Buffer>;

const MAX_SLIDES = 500;

function str(v: unknown): string {
  return v === null || v === undefined ? '' : typeof v === 'string' ? v : String(v);
}

function bulletsOf(v: unknown, level = 0, out: SlideSpec['bullets'] = []): SlideSpec['bullets'] {
  if (typeof v === 'string') v = v.split('\n').filter((l) => l.trim());
  if (!Array.isArray(v)) return out;
  for (const b of v) {
    if (Array.isArray(b)) bulletsOf(b, Math.min(level + 1, 4), out);
    else if (str(b).trim()) out.push({ text: str(b).trim(), level });
  }
  return out;
}

/** The slides of a payload: an object with `slides`, an array of slides, or Markdown text. */
export function toSlides(content: unknown): { title?: string; slides: SlideSpec[] } {
  const value = parseIfJson(content);
  if (typeof value === 'string') return { slides: markdownSlides(value) };
  const record = value as Record<string, unknown> | unknown[] | null;
  const list = Array.isArray(record)
    ? record
    : record && typeof record === 'object'
      ? record.slides
      : undefined;
  if (!Array.isArray(list))
    throw new PayloadError('pptx', `content is ${value === null ? 'null' : 'an object without "slides"'}`);
  if (!list.length) throw new PayloadError('pptx', '"slides" is empty');
  if (list.length > MAX_SLIDES)
    throw new PayloadError('pptx', `${list.length} slides; at most ${MAX_SLIDES}`);
  const slides = list.map((raw, i): SlideSpec => {
    if (typeof raw === 'string')
      return markdownSlides(raw)[0] ?? { title: '', bullets: [], text: [], notes: '' };
    if (!raw || typeof raw !== 'object') throw new PayloadError('pptx', `slides[${i}] is not an object`);
    const s = raw as Record<string, unknown>;
    const slide: SlideSpec = {
      title: str(s.title),
      bullets: bulletsOf(s.bullets ?? s.points),
      text: str(s.text ?? s.body)
        .split(/\n{2,}/)
        .map((t) => t.trim())
        .filter(Boolean),
      notes: str(s.notes),
    };
    if (s.subtitle) slide.subtitle = str(s.subtitle);
    if (s.table) slide.table = toTable('pptx', s.table, `slides[${i}].table`);
    if (s.image) slide.image = str(s.image);
    return slide;
  });
  const title = record && !Array.isArray(record) && typeof record === 'object' ? str(record.title) : '';
  return { ...(title ? { title } : {}), slides };
}

/** Markdown slides: split at `---` lines, else at each `#`/`##` heading. */
export function markdownSlides(md: string): SlideSpec[] {
  const text = md.replace(/\r\n?/g, '\n');
  const chunks = /^---\s*$/m.test(text) ? text.split(/^---\s*$/m) : text.split(/^(?=#{1,2} )/m);
  return chunks
    .map(markdownSlide)
    .filter((s) => s.title || s.bullets.length || s.text.length || s.table || s.image || s.notes);
}

function markdownSlide(chunk: string): SlideSpec {
  const slide: SlideSpec = { title: '', bullets: [], text: [], notes: '' };
  const tableLines: string[] = [];
  let notes: string[] | undefined;
  for (const line of chunk.split('\n')) {
    if (notes) {
      notes.push(line);
      continue;
    }
    const trimmed = line.trim();
    const note = /^(?:notes?|speaker notes|备注|讲稿)\s*[:：]\s*(.*)$/i.exec(trimmed);
    const heading = /^#{1,6}\s+(.*)$/.exec(trimmed);
    const bullet = /^(\s*)(?:[-*+•]|\d+[.)])\s+(.*)$/.exec(line);
    const image = /^!\[[^\]]*\]\(([^)]+)\)$/.exec(trimmed);
    if (note) notes = [note[1]!];
    else if (heading && !slide.title) slide.title = heading[1]!.trim();
    else if (heading) slide.text.push(heading[1]!.trim());
    else if (image) slide.image = image[1]!.trim();
    else if (trimmed.startsWith('|')) tableLines.push(trimmed);
    else if (bullet)
      slide.bullets.push({
        text: bullet[2]!.trim(),
        level: Math.min(Math.floor(bullet[1]!.replace(/\t/g, '  ').length / 2), 4),
      });
    else if (trimmed) slide.text.push(trimmed);
  }
  if (notes) slide.notes = notes.join('\n').trim();
  const rows = tableLines
    .filter((l) => !/^\|[\s:|-]+\|$/.test(l))
    .map((l) =>
      l
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((c) => c.trim()),
    );
  if (rows.length) slide.table = { headers: rows[0]!, rows: rows.slice(1) as Cell[][] };
  return slide;
}

/** What a continued slide's title ends with, in the deck's language. */
function continuedMark(chinese: boolean): string {
  return chinese ? '（续）' : ' (cont.)';
}

const CJK = /[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]/;

/** The .pptx bytes. `loadImage` reads an image the payload names (from the output folder). */
export async function buildPptx(
  deck: { title?: string; slides: SlideSpec[] },
  loadImage: ImageLoader,
): Promise<{ data: Buffer; notes: string[]; pages: number; mark: string }> {
  const pages = fitSlides(deck.slides);
  // The ESM build's default export is the class; the package's types describe the CJS one.
  const PptxGenJS = (await import('pptxgenjs')).default as unknown as new () => Deck;
  const pptx = new PptxGenJS();
  pptx.layout = 'LAYOUT_16x9';
  pptx.author = 'zhi';
  if (deck.title) pptx.title = deck.title;
  const all = JSON.stringify(deck);
  const chinese = CJK.test(all);
  const font = chinese
    ? { fontFace: 'Microsoft YaHei', lang: 'zh-CN' }
    : { fontFace: 'Calibri', lang: 'en-US' };
  const notes: string[] = [];
  defineMasters(pptx, font);
  for (const page of pages) {
    const titleOnly = !page.bullets.length && !page.text.length && !page.table && !page.image;
    const slide = pptx.addSlide({ masterName: titleOnly ? COVER : CONTENT });
    const title = page.continued ? `${page.title}${continuedMark(chinese)}` : page.title;
    if (title)
      slide.addText(title, {
        ...font,
        placeholder: 'title',
        fontSize: titleSize(title, titleOnly),
        fit: 'shrink',
      });
    if (titleOnly) {
      if (page.subtitle) slide.addText(page.subtitle, { ...font, placeholder: 'body' });
    } else {
      await addBody(slide, page, font, loadImage, notes);
    }
    if (page.notes) slide.addNotes(page.notes);
  }
  const out = (await pptx.write({ outputType: 'nodebuffer' })) as Buffer;
  return { data: Buffer.from(out), notes, pages: pages.length, mark: continuedMark(chinese) };
}

type Font = { fontFace: string; lang: string };

const COVER = 'ZHI_COVER';
const CONTENT = 'ZHI_CONTENT';
const ACCENT = '2F5597';
const TITLE_COLOR = '1F3864';

/** The slide title's placeholder: the whole width, bold, in the title colour. */
function titlePlaceholder(
  font: Font,
  at: { y: number; h: number; fontSize: number; align?: 'center'; valign?: 'middle' },
) {
  return {
    placeholder: {
      options: {
        name: 'title',
        type: 'title' as const,
        x: 0.5,
        w: 9,
        ...font,
        bold: true,
        color: TITLE_COLOR,
        ...at,
      },
      text: '',
    },
  };
}

/**
 * A plain readable theme: white, a thin accent band on top, dark blue titles, slide numbers.
 * Titles are real title placeholders, so outlines, accessibility checkers and "Reset slide" know them.
 */
function defineMasters(pptx: Deck, font: Font): void {
  const band = { rect: { x: 0, y: 0, w: PAGE.w, h: 0.12, fill: { color: ACCENT } } };
  pptx.defineSlideMaster({
    title: COVER,
    background: { color: 'FFFFFF' },
    objects: [
      band,
      titlePlaceholder(font, { y: 1.8, h: 1.2, fontSize: 36, align: 'center' }),
      {
        placeholder: {
          options: {
            name: 'body',
            type: 'body',
            x: 0.5,
            y: 3.1,
            w: 9,
            h: 0.8,
            ...font,
            fontSize: 20,
            align: 'center',
            color: '555555',
          },
          text: '',
        },
      },
    ],
  });
  pptx.defineSlideMaster({
    title: CONTENT,
    background: { color: 'FFFFFF' },
    objects: [
      band,
      titlePlaceholder(font, { y: 0.25, h: 0.8, fontSize: 28, valign: 'middle' }),
      { line: { x: 0.5, y: 1.08, w: 9, h: 0, line: { color: ACCENT, width: 1 } } },
    ],
    slideNumber: { x: 9.2, y: 5.2, w: 0.5, h: 0.3, fontSize: 10, color: '888888' },
  });
}
type Deck = import('pptxgenjs').default;
type Slide = ReturnType<Deck['addSlide']>;

/** Text and bullets on the left (the whole width without an image), then a table or an image. */
async function addBody(
  slide: Slide,
  spec: Page,
  font: Font,
  loadImage: ImageLoader,
  notes: string[],
): Promise<void> {
  const top = spec.title ? 1.2 : 0.4;
  const width = spec.image ? 4.6 : 9;
  let y = top;
  const runs = [
    ...spec.text.map((t) => ({ text: t, options: { breakLine: true } })),
    ...spec.bullets.map((b) => ({
      text: b.text,
      options: { bullet: true, indentLevel: b.level, breakLine: true },
    })),
  ];
  if (runs.length) {
    const h = spec.table ? Math.min(0.4 * runs.length + 0.2, 2) : 5.625 - top - 0.4;
    slide.addText(runs, {
      ...font,
      x: 0.5,
      y,
      w: width,
      h,
      fontSize: spec.fontSize,
      valign: 'top',
      fit: 'shrink', // a second guard: the size was chosen to fit (pptx-fit.ts)
      paraSpaceAfter: 6,
    });
    y += h + 0.1;
  }
  if (spec.table) {
    const head = spec.table.headers.map((h) => ({
      text: h,
      options: { bold: true, fill: { color: 'E8EEF7' } },
    }));
    const rows = spec.table.rows.map((r) => r.map((c) => ({ text: c === null ? '' : String(c) })));
    slide.addTable(head.length ? [head, ...rows] : rows, {
      ...font,
      x: 0.5,
      y,
      w: width,
      fontSize: 12,
      border: { type: 'solid', pt: 0.5, color: '999999' },
    });
  }
  if (spec.image) {
    const data = await loadImage(spec.image);
    const { imageSize } = await import('image-size');
    const size = imageSize(data);
    const type = size.type === 'jpg' ? 'jpeg' : (size.type ?? 'png');
    const [bx, by, bw, bh] = [
      runs.length || spec.table ? 5.3 : 0.5,
      top,
      runs.length || spec.table ? 4.2 : 9,
      5.625 - top - 0.3,
    ];
    const scale = Math.min(bw / (size.width || 1), bh / (size.height || 1));
    const [w, h] = [(size.width || 1) * scale, (size.height || 1) * scale];
    slide.addImage({
      data: `image/${type};base64,${data.toString('base64')}`,
      x: bx + (bw - w) / 2,
      y: by,
      w,
      h,
    });
    if (!['png', 'jpeg', 'gif', 'svg'].includes(type))
      notes.push(`image ${spec.image} is ${type}; PowerPoint shows PNG, JPG, GIF and SVG best`);
  }
}

/** file_write's .pptx encoder. */
export async function encodePptx(
  content: unknown,
  loadImage: ImageLoader,
): Promise<{ data: Buffer; summary: string; notes: string[] }> {
  const deck = toSlides(content);
  if (!deck.slides.length) throw new PayloadError('pptx', 'no slides were found in the text');
  const { data, notes, pages, mark } = await buildPptx(deck, loadImage);
  const n = deck.slides.length;
  const withNotes = deck.slides.filter((s) => s.notes).length;
  const continued =
    pages > n
      ? ` (${n} in the content; ${pages - n} more slide(s) titled "…${mark}" carry the lists and tables that did not fit one slide)`
      : '';
  return {
    data,
    summary: `${pages} slide${pages === 1 ? '' : 's'}${continued}${withNotes ? `, ${withNotes} with speaker notes` : ''}`,
    notes,
  };
}
