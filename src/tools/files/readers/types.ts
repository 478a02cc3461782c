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
}
