import { ToolError } from '../../types.js';

/** How much text one read returns by default (here, so callers need not load every reader). */
export const DEFAULT_MAX_BYTES = 100 * 1024;

/** Why a document could not be read; the message is written for the model (English). */
export type DocumentErrorCode =
  | 'not_found'
  | 'is_directory'
  | 'not_regular'
  | 'permission'
  | 'binary'
  | 'too_large'
  | 'unreadable'
  | 'encrypted'
  | 'no_text_layer'
  | 'unsupported';

/** A document that cannot be read. A ToolError, so a tool can let it through to the model. */
export class DocumentError extends ToolError {
  constructor(
    readonly code: DocumentErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DocumentError';
  }
}

/**
 * Content the document hides from a person reading it (Word's hidden or white text, a hidden
 * sheet, an HTML or Markdown comment): the model is shown it labelled as hidden, and the person
 * is warned when it reads like an instruction.
 */
export interface HiddenPart {
  /** What hid it: Word's hidden (`vanish`), white or tiny text, a hidden sheet, a comment. */
  kind: 'vanish' | 'white' | 'tiny' | 'sheet' | 'cells' | 'comment';
  text: string;
  /** The hidden sheet's name. */
  sheet?: string;
}

/** How the model is told what hid a passage (English). */
export function hiddenLabel(p: HiddenPart): string {
  switch (p.kind) {
    case 'vanish':
      return 'hidden text';
    case 'white':
      return 'white text';
    case 'tiny':
      return 'text too small to see';
    case 'sheet':
      return `hidden sheet "${p.sheet ?? ''}"`;
    case 'cells':
      return `hidden rows or columns of sheet "${p.sheet ?? ''}"`;
    case 'comment':
      return 'comment';
  }
}

/** What a format extractor returns before the size cap is applied. */
export interface Extracted {
  text: string;
  /** True when the extractor stopped early because the text already exceeded what was asked for. */
  partial?: boolean;
  pages?: number;
  sheets?: string[];
  notes?: string[];
  /** Where `text` starts in the whole extracted text, when the extractor skipped what came before. */
  base?: number;
  /** Hidden content found (also labelled where it stands in `text`). */
  hidden?: HiddenPart[];
}

/** The Office 97–2003 families and RTF, read by legacy.ts. */
export type LegacyFamily = 'doc' | 'xls' | 'ppt' | 'rtf';

/** What a document is, and so which reader reads it. */
export type DocumentKind =
  | 'text'
  | 'docx'
  | 'xlsx'
  | 'pdf'
  | 'pptx'
  | 'odt'
  | 'ods'
  | 'odp'
  | 'html'
  | LegacyFamily;
