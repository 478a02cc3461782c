/**
 * The file-system side of reading a document: its size and kind of entry, its first bytes, and
 * how a failure to open it, a file too large, or a binary file is told to the model.
 */
import { open, stat } from 'node:fs/promises';
import { formatBytes } from '../../../support/text.js';
import type { BinaryKind } from './text.js';
import { DocumentError } from './types.js';

export function binaryMessage(kind: BinaryKind, ext: string): string {
  switch (kind) {
    case 'image':
      return 'This is an image, not a text file. Use the ocr tool to extract the text in it.';
    case 'pdf':
      return 'This is a PDF file.';
    case 'zip':
      return `This is a ZIP-based file (an archive or an Office file${ext ? ` with the unexpected extension "${ext}"` : ''}), not text; it cannot be read as text.`;
    case 'old-office':
      return 'This is an old binary Office file (.doc/.xls/.ppt) or an encrypted Office file; it cannot be read. Ask the user to save it as .docx/.xlsx without a password.';
    case 'archive':
      return 'This is a compressed archive, not a text file; it cannot be read.';
    case 'executable':
      return 'This is a program (executable), not a text file; it cannot be read.';
    case 'media':
      return 'This is an audio or video file, not a text file; file_read cannot read it. zhi transcribes recordings (GLM-ASR, priced per minute) when the user attaches one in the chat (@file) or runs `zhi run meeting-notes <file>`: tell the user so.';
    default:
      return 'This is a binary file, not text (it contains NUL bytes or control characters); it cannot be read.';
  }
}

/** Size and time of the file; a folder or a missing file is a DocumentError. */
export async function fileFacts(absPath: string): Promise<{ fileBytes: number; mtimeMs: number }> {
  try {
    const st = await stat(absPath);
    if (st.isDirectory())
      throw new DocumentError(
        'is_directory',
        'This is a folder, not a file. Use file_list to see what it contains.',
      );
    // A named pipe would block the read forever; a device or socket is not a document either.
    if (!st.isFile())
      throw new DocumentError(
        'not_regular',
        'This is not a regular file (a named pipe, a device or a socket); it cannot be read as a document.',
      );
    return { fileBytes: st.size, mtimeMs: st.mtimeMs };
  } catch (err) {
    if (err instanceof DocumentError) throw err;
    throw fsError(err);
  }
}

/** The first bytes of a file, to tell its kind by signature. */
export async function readHead(absPath: string, signal?: AbortSignal): Promise<Buffer> {
  if (signal?.aborted) throw new DocumentError('unreadable', 'Interrupted.');
  try {
    const fh = await open(absPath, 'r');
    try {
      // Enough for a signature, and for markup to say what it is (content-kind.ts).
      const buf = Buffer.alloc(4096);
      const { bytesRead } = await fh.read(buf, 0, 4096, 0);
      return buf.subarray(0, bytesRead);
    } finally {
      await fh.close();
    }
  } catch (err) {
    throw fsError(err);
  }
}

export function tooLarge(size: number, cap: number): DocumentError {
  return new DocumentError(
    'too_large',
    `This file is too large to read (${formatBytes(size)}; the limit is ${formatBytes(cap)}). Ask the user for a smaller file or a part of it.`,
  );
}

export function fsError(err: unknown): DocumentError {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new DocumentError('not_found', 'The file does not exist.');
  if (code === 'EACCES' || code === 'EPERM')
    return new DocumentError('permission', 'Permission denied: the file cannot be opened for reading.');
  if (code === 'EISDIR')
    return new DocumentError(
      'is_directory',
      'This is a folder, not a file. Use file_list to see what it contains.',
    );
  return new DocumentError('unreadable', `The file cannot be read (${code ?? (err as Error).message}).`);
}
