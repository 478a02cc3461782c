/**
 * The files bundled with an Agent Skill (`references/`, `assets/`, `scripts/`…): listed when the
 * skill loads, read by path relative to the skill's folder, read-only, in pages.
 */
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { DEFAULT_MAX_BYTES } from '../tools/files/readers/types.js';
import { resolveReadPath } from '../tools/paths.js';
import { ToolError, type ToolTraits } from '../tools/types.js';

/**
 * Deep enough for the docx/xlsx/pptx skills' schema trees (ooxml/schemas/…, 5 levels), and a
 * generous count: a skill is a folder someone chose to share, not a home directory.
 */
export const MAX_DEPTH = 8;
export const MAX_RESOURCES = 2000;
/** How many bundled files a prompt names before saying "and N more". */
export const PROMPT_LISTED = 60;

/** Every file of a skill's folder except SKILL.md and hidden ones, as `a/b.md` paths, sorted. */
export async function listResources(folder: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      if (out.length >= MAX_RESOURCES || e.name.startsWith('.')) continue;
      const full = join(dir, e.name);
      if (e.isDirectory() && depth < MAX_DEPTH) await walk(full, depth + 1);
      else if (e.isFile() && !(depth === 0 && e.name === 'SKILL.md'))
        out.push(relative(folder, full).split(sep).join('/'));
    }
  };
  await walk(folder, 0);
  return out;
}

/** The list as a prompt shows it: the first files, then how many more there are. */
export function resourceSummary(resources: readonly string[]): string {
  const shown = resources.slice(0, PROMPT_LISTED).join(', ');
  const more = resources.length - PROMPT_LISTED;
  return more > 0 ? `${shown}, … and ${more} more` : shown;
}

/**
 * Which listed file a path names. Skills written on macOS refer to `REFERENCE.md` while the file
 * is `reference.md`: an exact match wins, then a case-insensitive one. `./` and `\` are accepted.
 */
export function findResource(resources: readonly string[], wanted: string): string | undefined {
  const norm = wanted
    .trim()
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '');
  if (resources.includes(norm)) return norm;
  const lower = norm.toLowerCase();
  return resources.find((r) => r.toLowerCase() === lower);
}

export interface BundledRead {
  /** Text for the model, with a marker that gives the next offset when there is more. */
  text: string;
  path: string;
}

/**
 * Read one bundled file, `offset` bytes into its text. Only listed files, only inside the skill's
 * folder once symlinks are resolved; `how` tells the model how to ask for the next page.
 */
export async function readBundled(
  folder: string,
  resources: readonly string[],
  wanted: string,
  o: { offset?: number; signal?: AbortSignal; how: (next: number) => string },
): Promise<BundledRead> {
  const path = findResource(resources, wanted);
  if (!path) {
    const shown = resourceSummary(resources) || '(none)';
    throw new ToolError(`"${wanted}" is not one of this skill's files. Its files: ${shown}.`);
  }
  // The one containment rule, rooted at the skill's folder: links resolved, secrets refused.
  const { abs } = await resolveReadPath(folder, path);
  // The readers (and their charset detection) load here, not when skills are discovered.
  const { readDocument } = await import('../tools/files/readers/index.js');
  const doc = await readDocument(abs, {
    maxBytes: DEFAULT_MAX_BYTES,
    ...(o.offset ? { offset: o.offset } : {}),
    ...(o.signal ? { signal: o.signal } : {}),
    continueHint: (next) => ` ${o.how(next)}`,
  });
  if (o.offset && doc.offset >= doc.textBytes) {
    return {
      path,
      text: `[offset ${o.offset} is past the end of ${path}: its text is ${doc.textBytes} bytes]`,
    };
  }
  return { path, text: doc.text };
}

const SCRIPT_EXT = /\.(py|sh|bash|zsh|js|mjs|cjs|ts|rb|pl|php|lua|r|ps1|bat|cmd)$/i;

/**
 * A bundled file a skill runs rather than reads: anything in a `scripts/` folder at any depth,
 * or a program by its extension (`tools/make_gif.py`, `find-polluter.sh` beside SKILL.md).
 */
export function isScript(resource: string): boolean {
  return /(^|\/)scripts\//i.test(resource) || SCRIPT_EXT.test(resource);
}

/** The traits of any tool reading bundled files: it promises the loop a whole page plus its marker. */
export const BUNDLED_TRAITS: ToolTraits = { maxResultBytes: DEFAULT_MAX_BYTES + 2048 };

/**
 * What a model needs to use a skill's folder: where it is (paths in SKILL.md are relative to it),
 * how to read its files, and how to run its scripts (through the shell tool, by full path, from
 * the person's folder where their files are).
 */
export function skillFolderLines(
  skill: { folder?: string; resources: readonly string[]; shellScopes?: string[] },
  o: { tool: string; shell: boolean },
): string[] {
  if (!skill.folder) return [];
  const lines = [
    `This skill's folder is ${JSON.stringify(skill.folder)}; paths in its instructions (scripts/…, reference.md…) are relative to that folder.`,
  ];
  if (skill.resources.length) {
    lines.push(
      `Its bundled files (read-only; read one with ${o.tool} by its path relative to the folder): ${resourceSummary(skill.resources)}.`,
    );
  }
  const ex = skill.resources.find((r) => r.startsWith('scripts/')) ?? skill.resources.find(isScript);
  if (o.shell && ex) {
    lines.push(
      `Run its scripts with the shell tool by their full path, e.g. ${JSON.stringify(`${skill.folder}/${ex}`)} after the program (python3, node, bash…); the command runs in the person's current folder, where their files are.`,
    );
  }
  if (o.shell && skill.shellScopes?.length) {
    lines.push(`The shell is limited to commands that start with: ${skill.shellScopes.join(', ')}.`);
  }
  return lines;
}
