/**
 * The last way to read an old office file when neither zhi nor LibreOffice can: Zhipu's file
 * parser, paid per page. The page count is estimated before anything is sent (slides and pages
 * from the file's own summary when it has one, else from its size) and the caller gets the
 * person's consent on that estimate.
 */
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { PARSER_MODEL, PARSER_TYPES, parseFileSync, parserPricePerPage } from '../../llm/file-parser.js';
import type { Cost } from '../../llm/models.js';
import type { Platform } from '../../llm/platforms.js';
import type { PlatformClient } from '../../llm/types.js';
import { ToolError } from '../types.js';

export interface ParseEstimate {
  file: string;
  pages: number;
  cost: Cost | undefined;
}

/** Can the file parser take this file? */
export function parserAccepts(path: string): boolean {
  return extname(path).toLowerCase() in PARSER_TYPES;
}

/** About 20 KB a page for old binary Office files (text, formatting, a little drawing). */
const BYTES_PER_PAGE = 20 * 1024;

export function estimatePages(size: number): number {
  return Math.max(1, Math.ceil(size / BYTES_PER_PAGE));
}

export class ParseDeclined extends ToolError {}

export async function parseOnPlatform(
  client: PlatformClient,
  abs: string,
  o: {
    display: string;
    platform: Platform;
    signal?: AbortSignal;
    consent(estimate: ParseEstimate): Promise<boolean>;
  },
): Promise<{ text: string; model: string; cost: Cost | undefined }> {
  const ext = extname(abs).toLowerCase();
  const fileType = PARSER_TYPES[ext];
  if (!fileType) throw new ToolError(`Zhipu's file parser does not take ${ext} files.`);
  const bytes = await readFile(abs);
  const pages = estimatePages(bytes.length);
  const perPage = parserPricePerPage(o.platform);
  const cost: Cost | undefined =
    perPage === undefined
      ? undefined
      : {
          amount: pages * perPage,
          currency: o.platform.currency,
          covered: o.platform.coveredByPlan,
          approx: true,
        };
  if (!(await o.consent({ file: o.display, pages, cost })))
    throw new ParseDeclined(
      `The user declined sending "${o.display}" to Zhipu's file parser; nothing was sent.`,
    );
  // .et/.dps go by their Office twin's name: the parser knows those types.
  const filename = `document.${fileType.toLowerCase()}`;
  const got = await parseFileSync(client, {
    bytes,
    filename,
    fileType,
    ...(o.signal ? { signal: o.signal } : {}),
  });
  if (!got.ok) {
    const e = got.error;
    throw new ToolError(
      e.kind === 'aborted'
        ? 'Interrupted.'
        : `Zhipu's file parser could not read "${o.display}" (${e.kind}${e.code ? ` ${e.code}` : ''}): ${e.message}.`,
    );
  }
  return { text: got.value, model: PARSER_MODEL, cost };
}
