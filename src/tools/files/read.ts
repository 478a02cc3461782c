import { z } from 'zod';
import { formatBytes } from '../../support/text.js';
import { untrusted } from '../../support/untrusted.js';
import { resolveReadPath } from '../paths.js';
import { type Tool, type ToolContext, ToolError } from '../types.js';
import { FILE_READ_TOOL, PAGE_BYTES } from './entries.js';
import { documentFacts } from './readers/facts.js';
import { hiddenWarning } from './readers/hidden.js';

const schema = z.object({
  path: z.string().describe('Relative path.'),
  offset: z.coerce.number().int().min(0).optional().describe('From the end marker, to read on.'),
});

const fileRead: Tool<typeof schema> = {
  name: FILE_READ_TOOL.name,
  traits: FILE_READ_TOOL.traits,
  description: [
    'Read a file as text: .docx, .xlsx as Markdown, PDF by page (scans, images: ocr).',
    `${PAGE_BYTES / 1024} KB per call; more ends with a marker giving the offset.`,
  ].join(' '),
  schema,
  kind: 'read',
  label: (args) => args.path,
  async execute(args, ctx) {
    const file = await readPath(args.path, ctx);
    // The readers (with their character-set tables) load with the first file read: the schema
    // above is all a request needs, and most runs read no file.
    const { readDocument } = await import('./readers/index.js');
    const doc = await readDocument(file.abs, {
      maxBytes: PAGE_BYTES,
      ...(args.offset ? { offset: args.offset } : {}),
      signal: ctx.signal,
      continueHint: (next) => ` Call file_read with offset=${next} to read on.`,
    });
    if (doc.textBytes === 0) return `[${file.display} is empty: it contains no text]`;
    if (args.offset && doc.offset >= doc.textBytes) {
      return `[offset ${args.offset} is at or past the end of ${file.display}: its text is ${doc.textBytes} bytes long]`;
    }
    // Hidden text that reads like an instruction: the person is told, whatever the model does.
    const warning = hiddenWarning(file.display, doc.hidden);
    if (warning) {
      const event: { type: 'warning'; message: string } = { type: 'warning', message: warning };
      ctx.emit(event);
    }
    // The file's text is data, inside a boundary the file cannot forge (support/untrusted.ts).
    const source = `file ${file.display}`;
    if (doc.kind === 'text' && !doc.notes.length && !doc.truncated) return untrusted(doc.text, source);
    const facts = documentFacts(doc);
    // A file longer than a page: how much there is, so the model can plan its reading.
    if (doc.truncated) facts.push(pagesDigest(doc.textBytes, doc.complete, doc.offset));
    return `[${file.display}: ${facts.join('; ')}]\n\n${untrusted(doc.text, source)}`;
  },
};

export default fileRead;

/**
 * The file to read: in the current folder, else in the folder of an active skill (a SKILL.md
 * names its bundled files by relative path). Not found anywhere: the error says how a skill's
 * files are read.
 */
async function readPath(path: string, ctx: ToolContext) {
  const skills = ctx.extraReadable ?? [];
  try {
    return await resolveReadPath(ctx.cwd, path, {
      ...(skills.length ? { extraRoots: [...skills] } : {}),
      ...(ctx.named ? { named: ctx.named } : {}),
    });
  } catch (err) {
    if (!(err instanceof ToolError) || !skills.length || !err.message.startsWith('File not found')) throw err;
    throw new ToolError(
      `${err.message} Looked in the current folder and in the skill folders (${skills.join(', ')}). A file bundled with a skill is read by its path in the skill folder with the skill tool ("path") in chat, or read_reference in zhi run.`,
    );
  }
}

/** "text 310 KB, 13 pages of 24 KB, this is page 1" (a lower bound while extraction stopped early). */
function pagesDigest(textBytes: number, complete: boolean, offset: number): string {
  const pages = Math.ceil(textBytes / PAGE_BYTES);
  const more = complete ? '' : ' or more';
  return `text ${formatBytes(textBytes)}${more}, ${pages}${more} pages of ${PAGE_BYTES / 1024} KB, this is page ${Math.floor(offset / PAGE_BYTES) + 1}`;
}
