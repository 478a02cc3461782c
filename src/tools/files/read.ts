import { z } from 'zod';
import { resolveReadPath } from '../paths.js';
import type { Tool } from '../types.js';
import { documentFacts } from './readers/facts.js';
import { DEFAULT_MAX_BYTES, readDocument } from './readers/index.js';

const schema = z.object({
  path: z.string().describe('Relative path.'),
  offset: z.coerce.number().int().min(0).optional().describe('From the end marker, to read on.'),
});

const fileRead: Tool<typeof schema> = {
  name: 'file_read',
  description: [
    'Read a file as text: .docx, .xlsx as Markdown, PDF by page (scans, images: ocr).',
    `${DEFAULT_MAX_BYTES / 1024} KB per call; more ends with a marker giving the offset.`,
  ].join(' '),
  schema,
  kind: 'read',
  readsFile: true,
  // Its own 100 KB cap (with a marker giving the next offset) must reach the model whole.
  maxResultBytes: DEFAULT_MAX_BYTES + 2048,
  label: (args) => args.path,
  async execute(args, ctx) {
    const file = await resolveReadPath(ctx.cwd, args.path);
    const doc = await readDocument(file.abs, {
      maxBytes: DEFAULT_MAX_BYTES,
      ...(args.offset ? { offset: args.offset } : {}),
      signal: ctx.signal,
      continueHint: (next) => ` Call file_read with offset=${next} to read on.`,
    });
    if (doc.textBytes === 0) return `[${file.display} is empty: it contains no text]`;
    if (args.offset && doc.offset >= doc.textBytes) {
      return `[offset ${args.offset} is at or past the end of ${file.display}: its text is ${doc.textBytes} bytes long]`;
    }
    if (doc.kind === 'text' && !doc.notes.length) return doc.text;
    const facts = documentFacts(doc);
    return `[${file.display}: ${facts.join('; ')}]\n\n${doc.text}`;
  },
};

export default fileRead;
