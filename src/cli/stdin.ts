import { truncateText } from '../support/text.js';

export const MAX_STDIN_BYTES = 400 * 1024;

/** Read all of piped stdin as text (UTF-8; GB18030 when the bytes are not valid UTF-8). */
export async function readStdin(stream: NodeJS.ReadableStream = process.stdin): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  const bytes = Buffer.concat(chunks);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    text = new TextDecoder('gb18030').decode(bytes);
  }
  return truncateText(text.replace(/^\uFEFF/, ''), MAX_STDIN_BYTES).text;
}

/** A piped document attached to a message, clearly delimited for the model. */
export function attachDocument(message: string, name: string, text: string): string {
  return `${message}\n\n<document name="${name}">\n${text}\n</document>`;
}
