/**
 * `@file` imports in house rules: a line that is only `@docs/style.md` becomes that file's text.
 * The path is relative to the file that imports it and must stay inside the folder of the house
 * rules that started it (the project's folder), checked by the one containment rule
 * (`resolveReadPath`: symbolic links resolved, the secrets list, hidden and VCS files refused).
 * Imports go at most `MAX_IMPORT_DEPTH` deep; a file already being imported is not imported
 * again (a cycle). A failed import leaves a note for the model and a problem for the person.
 */
import { realpath } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { resolveReadPath } from '../tools/paths.js';

export const MAX_IMPORT_DEPTH = 3;

/** A line that is an import: `@` and a path, nothing else (an e-mail or `@someone` in prose is not). */
const IMPORT_LINE = /^@((?:\.{0,2}\/)?[\w.\-/\u4e00-\u9fff]+\.[A-Za-z0-9]+)\s*$/;

export type ImportProblemCode = 'outside' | 'refused' | 'missing' | 'depth' | 'cycle';

export interface ImportProblem {
  /** The house-rules file with the import line, and the path as written. */
  file: string;
  target: string;
  code: ImportProblemCode;
}

export interface Expanded {
  text: string;
  problems: ImportProblem[];
  /** The files imported (absolute), in order. */
  imported: string[];
}

/** Read a file's text, capped (the caller's reader: house rules read at most a little over their cap). */
export type ReadText = (abs: string) => string | undefined;

/** The house-rules text with its import lines replaced by the files they name. */
export async function expandImports(
  text: string,
  file: string,
  root: string,
  read: ReadText,
): Promise<Expanded> {
  const out: Expanded = { text: '', problems: [], imported: [] };
  const start = await realpath(file).catch(() => file);
  out.text = await expand(text, file, { root, read, out, chain: [start] });
  return out;
}

interface Walk {
  root: string;
  read: ReadText;
  out: Expanded;
  /** Real paths of the files being expanded, outermost first. */
  chain: string[];
}

async function expand(text: string, file: string, w: Walk): Promise<string> {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const target = IMPORT_LINE.exec(lines[i]!.trim())?.[1];
    if (!target) continue;
    lines[i] = await importOne(target, file, w);
  }
  return lines.join('\n');
}

async function importOne(target: string, file: string, w: Walk): Promise<string> {
  const fail = (code: ImportProblemCode) => {
    w.out.problems.push({ file, target, code });
    return `[@${target}: not imported (${NOTES[code]})]`;
  };
  if (w.chain.length > MAX_IMPORT_DEPTH) return fail('depth');
  const abs = resolve(dirname(file), target);
  const rel = relative(w.root, abs);
  if (rel.startsWith('..') || resolve(w.root, rel) !== abs) return fail('outside');
  let real: string;
  try {
    real = (await resolveReadPath(w.root, rel)).abs;
  } catch (err) {
    return fail(/not found|does not exist/i.test(String(err)) ? 'missing' : 'refused');
  }
  if (w.chain.includes(real)) return fail('cycle');
  const text = w.read(real);
  if (text === undefined) return fail('missing');
  w.out.imported.push(real);
  return expand(text.trim(), real, { ...w, chain: [...w.chain, real] });
}

/** Said to the model, in English, where the import line was. */
const NOTES: Record<ImportProblemCode, string> = {
  outside: 'outside the folder of these instructions',
  refused: 'a file zhi does not read this way (secret, hidden or outside the folder)',
  missing: 'no such file',
  depth: `imports go at most ${MAX_IMPORT_DEPTH} deep`,
  cycle: 'it imports itself',
};
