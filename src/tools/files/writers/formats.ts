/**
 * The files file_write can make, written once: per format its extensions, the shape of
 * `content` (in brief, for the tool's description and the skill-creation prompts; in full, for
 * the error a payload that does not fit gets) and its name for a person. The encoders are the
 * `ENCODERS` table of writers/index.ts, typed over these formats, so a format without one does
 * not build. Text for the model is English; the name a person reads is a catalogue key.
 */
import type { MessageKey } from '../../../support/i18n/index.js';

interface WriteFormat {
  /** Lower-case, with the dot; the first is the one named to the model. */
  extensions: readonly string[];
  /** The shape of `content` in a few words (the tool's definition is sent with every request). */
  brief: string;
  /** The contract in full, with an example, as the model reads it in a payload error. */
  shape: string;
  /** What a person is told the file is ("Excel workbook"). */
  label: MessageKey;
}

export const WRITE_FORMATS = {
  md: {
    extensions: ['.md', '.markdown'],
    brief: 'text',
    shape: 'a string: the Markdown text of the file',
    label: 'files.format.md',
  },
  // Web pages and vector images are text too (a skill's report.html, an SVG drawing).
  txt: {
    extensions: ['.txt', '.html', '.htm', '.svg'],
    brief: 'text',
    shape: 'a string: the text of the file',
    label: 'files.format.txt',
  },
  json: {
    extensions: ['.json'],
    brief: 'any',
    shape: 'any JSON value (object, array, …); a string is parsed as JSON',
    label: 'files.format.json',
  },
  csv: {
    extensions: ['.csv'],
    brief: '{headers, rows} or CSV text',
    shape:
      '{"headers": ["Name", "Amount"], "rows": [["A", 12.5], ["B", 7]]} (rows may also be objects keyed by header), or CSV text',
    label: 'files.format.csv',
  },
  xlsx: {
    extensions: ['.xlsx'],
    brief: '{sheets: [{name, headers, rows}]}, =B2*C2 formulas, dates and amounts (¥1,500, 1.2万) typed',
    shape:
      '{"sheets": [{"name": "Sheet1", "headers": ["Name", "Amount"], "rows": [["A", 12.5], ["B", 7]]}]} (one entry per sheet; rows may also be objects keyed by header)',
    label: 'files.format.xlsx',
  },
  docx: {
    extensions: ['.docx'],
    brief: '{content: Markdown}',
    shape:
      '{"content": "# Title\\n\\nMarkdown text: headings, paragraphs, **bold**, *italic*, - lists, 1. lists, | tables |, ``` code ```"}',
    label: 'files.format.docx',
  },
  pptx: {
    extensions: ['.pptx'],
    brief: '{slides: [{title, bullets, table?, image?, notes}]} or Markdown, # per slide',
    shape:
      '{"slides": [{"title": "Plan", "bullets": ["Point", ["Sub-point"]], "table"?: {"headers": [...], "rows": [[...]]}, "image"?: "chart.png", "notes": "Speaker notes"}]}, or Markdown (a slide per # heading, - bullets, | tables |, ![](chart.png), a "Notes:" line before the notes)',
    label: 'files.format.pptx',
  },
} as const satisfies Record<string, WriteFormat>;

export type OutputFormat = keyof typeof WRITE_FORMATS;
export const OUTPUT_FORMAT_IDS = Object.keys(WRITE_FORMATS) as OutputFormat[];

/** Every extension file_write takes. */
export const SUPPORTED_EXTENSIONS: readonly string[] = OUTPUT_FORMAT_IDS.flatMap(
  (f) => WRITE_FORMATS[f].extensions,
);

/** The format an extension (`.xlsx`, any case) is written as. */
export function formatOfExtension(ext: string): OutputFormat | undefined {
  const lower = ext.toLowerCase();
  return OUTPUT_FORMAT_IDS.find((f) => (WRITE_FORMATS[f].extensions as readonly string[]).includes(lower));
}

/**
 * `.md/.txt text; .json any JSON; .csv {…} or CSV text; …`: what `content` is per extension, for
 * the file_write description and the prompts that teach a skill's model to call it.
 */
export function shapesInBrief(): string {
  const byBrief = new Map<string, string[]>();
  for (const f of OUTPUT_FORMAT_IDS) {
    const { brief, extensions } = WRITE_FORMATS[f];
    byBrief.set(brief, [...(byBrief.get(brief) ?? []), extensions[0]!]);
  }
  return [...byBrief].map(([brief, exts]) => `${exts.join('/')} ${brief}`).join('; ');
}
