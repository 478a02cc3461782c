/**
 * Word documents from Markdown: marked's lexer parses the Markdown, and each block becomes a
 * docx element — headings (Heading 1–6 styles, so Word's navigation pane and mammoth see them),
 * paragraphs with bold/italic/strike/code/links, bullet and numbered lists (nested; each
 * numbered list starts at 1), tables with a bold header row, code blocks in a monospace font
 * on a grey background, block quotes and rules. Both libraries are loaded on first use.
 */
import type * as Docx from 'docx';
import type { Token, Tokens } from 'marked';
import { pushAll } from '../../../support/arrays.js';
import { columnWidths } from './docx-columns.js';
import { PayloadError, parseIfJson } from './payload.js';

type D = typeof Docx;
type Block = Docx.Paragraph | Docx.Table;
type Inline = Docx.TextRun | Docx.ExternalHyperlink;

interface RunStyle {
  bold?: boolean;
  italics?: boolean;
  strike?: boolean;
  code?: boolean;
}

const MONO = 'Consolas';
const ORDERED = 'zhi-ordered';

/** The Markdown text of a .docx payload: `{content: "…"}`, or the Markdown string itself. */
export function docxMarkdown(content: unknown): string {
  const value = parseIfJson(content);
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const v = value as Record<string, unknown>;
    const md = v.content ?? v.markdown ?? v.text;
    if (typeof md === 'string') return md;
    throw new PayloadError(
      'docx',
      `"content" is ${md === undefined ? 'missing' : `a ${Array.isArray(md) ? 'list' : typeof md}, not a Markdown string`}`,
    );
  }
  throw new PayloadError('docx', `content is ${Array.isArray(value) ? 'an array' : `a ${typeof value}`}`);
}

function decodeEntities(s: string): string {
  return s.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_m, e: string) =>
    e === 'amp' ? '&' : e === 'lt' ? '<' : e === 'gt' ? '>' : e === 'quot' ? '"' : "'",
  );
}

class DocxBuilder {
  private orderedInstance = 0;
  constructor(private readonly d: D) {}

  blocks(tokens: Token[]): Block[] {
    const out: Block[] = [];
    for (const token of tokens) pushAll(out, this.block(token));
    return out;
  }

  private block(token: Token): Block[] {
    const d = this.d;
    switch (token.type) {
      case 'heading': {
        const t = token as Tokens.Heading;
        const level = [
          d.HeadingLevel.HEADING_1,
          d.HeadingLevel.HEADING_2,
          d.HeadingLevel.HEADING_3,
          d.HeadingLevel.HEADING_4,
          d.HeadingLevel.HEADING_5,
          d.HeadingLevel.HEADING_6,
        ][Math.min(6, Math.max(1, t.depth)) - 1];
        // Room above a heading and a little below, so sections stand apart (Word's own look).
        const spacing = { before: t.depth <= 1 ? 360 : t.depth === 2 ? 280 : 200, after: 120 };
        return [new d.Paragraph({ heading: level!, spacing, children: this.inlines(t.tokens) })];
      }
      case 'paragraph':
        return [
          new d.Paragraph({
            children: this.inlines((token as Tokens.Paragraph).tokens),
            spacing: { after: 120 },
          }),
        ];
      case 'text': {
        const t = token as Tokens.Text;
        return [
          new d.Paragraph({
            children: t.tokens ? this.inlines(t.tokens) : [this.run(decodeEntities(t.text), {})],
          }),
        ];
      }
      case 'list':
        return this.list(token as Tokens.List, 0, undefined);
      case 'table':
        return [this.table(token as Tokens.Table), new d.Paragraph({})];
      case 'code':
        return [this.code((token as Tokens.Code).text)];
      case 'blockquote':
        return this.quote((token as Tokens.Blockquote).tokens);
      case 'hr':
        return [
          new d.Paragraph({
            children: [],
            border: { bottom: { style: d.BorderStyle.SINGLE, size: 6, color: 'AAAAAA', space: 1 } },
          }),
        ];
      case 'html': {
        const text = decodeEntities((token as Tokens.HTML).text.replace(/<[^>]*>/g, '')).trim();
        return text ? [new d.Paragraph({ children: [this.run(text, {})] })] : [];
      }
      case 'space':
      case 'def':
        return [];
      default: {
        const raw = (token as { raw?: string }).raw?.trim();
        return raw ? [new d.Paragraph({ children: [this.run(raw, {})] })] : [];
      }
    }
  }

  private quote(tokens: Token[]): Block[] {
    const d = this.d;
    const out: Block[] = [];
    for (const t of tokens) {
      if (t.type === 'paragraph' || t.type === 'text') {
        const inl = (t as Tokens.Paragraph).tokens ?? [];
        out.push(
          new d.Paragraph({
            children: this.inlines(inl, { italics: true }),
            indent: { left: 567 },
            border: { left: { style: d.BorderStyle.SINGLE, size: 12, color: 'BBBBBB', space: 8 } },
            spacing: { after: 120 },
          }),
        );
      } else {
        pushAll(out, this.block(t));
      }
    }
    return out;
  }

  private list(list: Tokens.List, level: number, instance: number | undefined): Block[] {
    const d = this.d;
    const out: Block[] = [];
    const own = list.ordered
      ? instance !== undefined && level > 0
        ? instance
        : ++this.orderedInstance
      : undefined;
    for (const item of list.items) {
      let first = true;
      for (const t of item.tokens) {
        if (t.type === 'list') {
          pushAll(out, this.list(t as Tokens.List, Math.min(level + 1, 8), own ?? instance));
          continue;
        }
        const inl = (t as Tokens.Text).tokens ?? [
          { type: 'text', raw: (t as Tokens.Text).raw, text: (t as Tokens.Text).text } as Tokens.Text,
        ];
        const children = this.inlines(inl);
        if (first && item.task) children.unshift(this.run(item.checked ? '☑ ' : '☐ ', {}));
        const marker = list.ordered
          ? { numbering: { reference: ORDERED, level, instance: own! } }
          : { bullet: { level } };
        out.push(
          first
            ? new d.Paragraph({ children, ...marker })
            : new d.Paragraph({ children, indent: { left: 720 * (level + 1) } }),
        );
        first = false;
      }
    }
    return out;
  }

  private table(t: Tokens.Table): Docx.Table {
    const d = this.d;
    // A loop, not Math.max(...rows): a long table must not overflow the call stack.
    let cols = Math.max(t.header.length, 1);
    for (const r of t.rows) if (r.length > cols) cols = r.length;
    const total = 9000;
    const texts = Array.from({ length: cols }, (_, i) => [
      t.header[i]?.text ?? '',
      ...t.rows.map((r) => r[i]?.text ?? ''),
    ]);
    const widths = columnWidths(texts, total);
    const align = (a: string | null | undefined) =>
      a === 'right' ? d.AlignmentType.RIGHT : a === 'center' ? d.AlignmentType.CENTER : d.AlignmentType.LEFT;
    const cell = (c: Tokens.TableCell | undefined, header: boolean, i: number) =>
      new d.TableCell({
        width: { size: widths[i]!, type: d.WidthType.DXA },
        ...(header ? { shading: { type: d.ShadingType.CLEAR, color: 'auto', fill: 'E8EEF7' } } : {}),
        margins: { top: 40, bottom: 40, left: 80, right: 80 },
        children: [
          new d.Paragraph({
            alignment: align(t.align[i]),
            children: c ? this.inlines(c.tokens, header ? { bold: true } : {}) : [],
          }),
        ],
      });
    const rows = [
      new d.TableRow({
        tableHeader: true,
        children: Array.from({ length: cols }, (_, i) => cell(t.header[i], true, i)),
      }),
      ...t.rows.map(
        (r) => new d.TableRow({ children: Array.from({ length: cols }, (_, i) => cell(r[i], false, i)) }),
      ),
    ];
    return new d.Table({
      rows,
      width: { size: total, type: d.WidthType.DXA },
      columnWidths: widths,
    });
  }

  private code(text: string): Docx.Paragraph {
    const d = this.d;
    const lines = text.split('\n');
    return new d.Paragraph({
      shading: { type: d.ShadingType.CLEAR, color: 'auto', fill: 'F3F4F6' },
      spacing: { before: 60, after: 120 },
      children: lines.map(
        (line, i) => new d.TextRun({ text: line, font: MONO, size: 20, ...(i ? { break: 1 } : {}) }),
      ),
    });
  }

  private inlines(tokens: Token[] | undefined, style: RunStyle = {}): Inline[] {
    const d = this.d;
    const out: Inline[] = [];
    for (const t of tokens ?? []) {
      switch (t.type) {
        case 'strong':
          pushAll(out, this.inlines((t as Tokens.Strong).tokens, { ...style, bold: true }));
          break;
        case 'em':
          pushAll(out, this.inlines((t as Tokens.Em).tokens, { ...style, italics: true }));
          break;
        case 'del':
          pushAll(out, this.inlines((t as Tokens.Del).tokens, { ...style, strike: true }));
          break;
        case 'codespan':
          out.push(this.run(decodeEntities((t as Tokens.Codespan).text), { ...style, code: true }));
          break;
        case 'br':
          out.push(new d.TextRun({ text: '', break: 1 }));
          break;
        case 'link': {
          const l = t as Tokens.Link;
          const children = this.inlines(l.tokens, style).filter(
            (r): r is Docx.TextRun => r instanceof d.TextRun,
          );
          if (/^(https?:|mailto:)/i.test(l.href)) {
            out.push(
              new d.ExternalHyperlink({
                link: l.href,
                children: children.length ? children : [this.run(l.href, style)],
              }),
            );
          } else {
            pushAll(out, children);
          }
          break;
        }
        case 'image':
          out.push(
            this.run(`[image: ${(t as Tokens.Image).text || (t as Tokens.Image).href}]`, {
              ...style,
              italics: true,
            }),
          );
          break;
        case 'text': {
          const tt = t as Tokens.Text;
          if (tt.tokens?.length) pushAll(out, this.inlines(tt.tokens, style));
          else out.push(this.run(decodeEntities(tt.text), style));
          break;
        }
        case 'escape':
          out.push(this.run(decodeEntities((t as Tokens.Escape).text), style));
          break;
        case 'html':
          break;
        default:
          out.push(this.run(decodeEntities((t as { raw?: string }).raw ?? ''), style));
      }
    }
    return out;
  }

  private run(text: string, style: RunStyle): Docx.TextRun {
    return new this.d.TextRun({
      text,
      ...(style.bold ? { bold: true } : {}),
      ...(style.italics ? { italics: true } : {}),
      ...(style.strike ? { strike: true } : {}),
      ...(style.code
        ? { font: MONO, shading: { type: this.d.ShadingType.CLEAR, color: 'auto', fill: 'F3F4F6' } }
        : {}),
    });
  }
}

/** Han characters (CJK ideographs), which make a document Chinese for its fonts and language. */
const HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/g;

/**
 * Document defaults from the content: a document with Chinese in it gets 宋体 (SimSun) for East
 * Asian text and zh-CN as its language, so Word does not fall back to a Japanese or Western
 * font for it; any other document keeps Word's own defaults (nothing is set).
 */
export function languageStyles(markdown: string): { styles?: { default: object } } {
  const han = markdown.match(HAN)?.length ?? 0;
  if (han < 1) return {};
  return {
    styles: {
      default: {
        document: {
          run: {
            font: { ascii: 'Calibri', hAnsi: 'Calibri', eastAsia: 'SimSun', cs: 'Calibri' },
            language: { value: 'zh-CN', eastAsia: 'zh-CN' },
          },
        },
      },
    },
  };
}

/** The bytes of a .docx document for this Markdown. */
export async function buildDocx(markdown: string): Promise<Buffer> {
  const [d, { Lexer }] = await Promise.all([import('docx'), import('marked')]);
  const tokens = new Lexer({ gfm: true }).lex(markdown.replace(/\r\n?/g, '\n'));
  const children = new DocxBuilder(d).blocks(tokens);
  const levels = Array.from({ length: 9 }, (_, level) => ({
    level,
    format: d.LevelFormat.DECIMAL,
    text: `%${level + 1}.`,
    alignment: d.AlignmentType.START,
    style: { paragraph: { indent: { left: 720 * (level + 1), hanging: 360 } } },
  }));
  const doc = new d.Document({
    creator: 'zhi',
    ...languageStyles(markdown),
    numbering: { config: [{ reference: ORDERED, levels }] },
    sections: [{ children: children.length ? children : [new d.Paragraph({})] }],
  });
  return d.Packer.toBuffer(doc);
}

export async function encodeDocx(content: unknown): Promise<{ data: Buffer; summary: string }> {
  const md = docxMarkdown(content);
  const data = await buildDocx(md);
  const headings = (md.match(/^#{1,6}\s/gm) ?? []).length;
  return {
    data,
    summary: `${md.length} characters of Markdown${headings ? `, ${headings} heading${headings === 1 ? '' : 's'}` : ''}`,
  };
}
