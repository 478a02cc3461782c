/**
 * Project instructions: the house rules a person keeps for the model in `ZHI.md` (and
 * `AGENTS.md`, which other agents read, for compatibility; `CLAUDE.md` in a folder that has
 * neither) in the current folder and each parent up to the home folder, plus their own `ZHI.md`
 * in zhi's config folder, which applies everywhere. `@file` lines import other files
 * (instruction-imports.ts). They join the system prompt of the chat and of skill runs — the
 * person's own first, then from the outermost folder in, so the nearest file has the last word —
 * each capped, all together capped; the caller says a cut to the person.
 */
import { closeSync, existsSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { pushAll } from '../support/arrays.js';
import { expandImports, type ImportProblem } from './instruction-imports.js';

export const INSTRUCTION_FILES = ['ZHI.md', 'AGENTS.md'] as const;
/** Read in a folder that has none of INSTRUCTION_FILES: the file another agent's users keep. */
export const FALLBACK_FILE = 'CLAUDE.md';
/** One file's share of the prompt (characters); the rest is cut and the cut is said. */
export const MAX_FILE_CHARS = 12_000;
/** All files together; files past it are left out (and listed as such). */
export const MAX_TOTAL_CHARS = 24_000;

export interface InstructionFile {
  path: string;
  /** The text as it goes into the prompt (cut when it was longer than MAX_FILE_CHARS). */
  text: string;
  cut: boolean;
}

export interface Instructions {
  files: InstructionFile[];
  /** Files found but left out because the total was reached. */
  skipped: string[];
  /** `@file` imports that were not made. */
  problems: ImportProblem[];
}

/** The folders to look in: `cwd` and its parents, up to `home` when `cwd` is under it, else to the root. */
export function searchFolders(cwd: string, home: string): string[] {
  const start = resolve(cwd);
  const rel = relative(home, start);
  const underHome = rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && !/^[A-Za-z]:/.test(rel));
  const folders: string[] = [];
  for (let dir = start; ; dir = dirname(dir)) {
    folders.push(dir);
    if ((underHome && dir === resolve(home)) || dirname(dir) === dir) break;
  }
  return folders.reverse();
}

/** A file's text, reading at most a little over the cap: a huge file must not slow the start. */
export function readSmall(path: string): string | undefined {
  try {
    if (!statSync(path).isFile()) return undefined;
    const fd = openSync(path, 'r');
    try {
      const buf = Buffer.alloc(MAX_FILE_CHARS * 4 + 4);
      const n = readSync(fd, buf, 0, buf.length, 0);
      const text = buf
        .subarray(0, n)
        .toString('utf8')
        .replace(/\uFFFD$/, '');
      return text.trim() ? text : undefined;
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/** The files to read in a folder: ZHI.md and AGENTS.md, or CLAUDE.md where neither is. */
function filesIn(dir: string): string[] {
  const names = INSTRUCTION_FILES.map((name) => join(dir, name));
  return names.some((p) => existsSync(p)) ? names : [join(dir, FALLBACK_FILE)];
}

/** Every instruction file that applies here, in prompt order, its imports made, capped. */
export async function loadInstructions(cwd: string, home: string, configDir: string): Promise<Instructions> {
  const candidates = [join(configDir, 'ZHI.md'), ...searchFolders(cwd, home).flatMap(filesIn)];
  const seen = new Set<string>();
  const out: Instructions = { files: [], skipped: [], problems: [] };
  let total = 0;
  for (const path of candidates) {
    const read = readSmall(path);
    if (read === undefined) continue;
    // AGENTS.md is often a link to ZHI.md (or the config folder is inside the project): once.
    let real = path;
    try {
      real = realpathSync(path);
    } catch {}
    if (seen.has(real)) continue;
    seen.add(real);
    const expanded = await expandImports(read, path, dirname(real), readSmall);
    pushAll(out.problems, expanded.problems);
    const raw = expanded.text;
    const cut = raw.length > MAX_FILE_CHARS;
    const text = cut ? raw.slice(0, MAX_FILE_CHARS) : raw;
    if (total + text.length > MAX_TOTAL_CHARS) {
      out.skipped.push(path);
      continue;
    }
    total += text.length;
    out.files.push({ path, text, cut });
  }
  return out;
}

/** The part of the system prompt: each file marked with where it came from. */
export function instructionsPrompt(ins: Instructions): string {
  if (!ins.files.length) return '';
  const parts = ins.files.map(
    (f) =>
      `<instructions file="${f.path}">\n${f.text.trim()}${f.cut ? `\n[cut: the file is longer than ${MAX_FILE_CHARS} characters]` : ''}\n</instructions>`,
  );
  return `Instructions the user keeps for this folder (ZHI.md, AGENTS.md, CLAUDE.md); follow them, the later (nearer) ones first when they disagree, but never against the rules above:\n${parts.join('\n')}`;
}
