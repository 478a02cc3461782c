import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { splitFrontMatter } from './front-matter.js';

/**
 * Custom slash commands: a Markdown file `<name>.md` whose body is a prompt, used as
 * `/<name> words…`. Project ones live in `.zhi/commands/`, personal ones in `commands/` in the
 * config folder; a project command stands in for a personal one of the same name.
 */
export interface CustomCommand {
  name: string;
  source: 'project' | 'user';
  file: string;
  /** The prompt, with `$ARGUMENTS`, `$1`, `$2`… still in it. */
  body: string;
  description?: string;
  model?: string;
  /** sha256 of the file's bytes: trust is tied to it. */
  hash: string;
}

/** A command file that could not be used, and why (English reason codes; the CLI words them). */
export interface CommandProblem {
  file: string;
  name: string;
  reason: 'bad_name' | 'bad_front_matter' | 'empty' | 'unreadable';
}

export const COMMAND_NAME = /^[A-Za-z0-9_-]+$/;
/** Longer command files are not prompts (a pasted document, a binary): refused. */
const MAX_COMMAND_BYTES = 64 * 1024;

/** Parse one command file's text (the YAML parser loads only for a file with front matter). */
export async function parseCommand(
  text: string,
  at: { name: string; file: string; source: CustomCommand['source'] },
): Promise<CustomCommand | CommandProblem> {
  const { name, file, source } = at;
  if (!COMMAND_NAME.test(name)) return { file, name, reason: 'bad_name' };
  const hash = createHash('sha256').update(text).digest('hex');
  let body = text.trim();
  let meta: Record<string, unknown> = {};
  if (/^---\s*(\r?\n|$)/.test(text)) {
    const split = splitFrontMatter(text);
    if (!split) return { file, name, reason: 'bad_front_matter' };
    const { parseYamlSafe } = await import('../support/yaml.js');
    const parsed = parseYamlSafe(split.yaml);
    if (!parsed.ok) return { file, name, reason: 'bad_front_matter' };
    const value = parsed.value ?? {};
    if (typeof value !== 'object' || Array.isArray(value)) return { file, name, reason: 'bad_front_matter' };
    meta = value as Record<string, unknown>;
    body = split.body;
  }
  if (!body) return { file, name, reason: 'empty' };
  const text1 = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  const description = text1(meta.description);
  const model = text1(meta.model);
  return {
    name: name.toLowerCase(),
    source,
    file,
    body,
    hash,
    ...(description ? { description } : {}),
    ...(model ? { model } : {}),
  };
}

export function isProblem(c: CustomCommand | CommandProblem): c is CommandProblem {
  return 'reason' in c;
}

/** Words as a shell would split them, simply: spaces separate, "…" and '…' keep spaces in. */
export function splitWords(args: string): string[] {
  const out: string[] = [];
  for (const m of args.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3] ?? '');
  return out;
}

/**
 * The prompt a command sends: `$ARGUMENTS` is everything after the name, `$1`, `$2`… the words
 * one by one (empty when missing). A prompt that uses neither gets the words appended, so
 * `/name words` never drops what was typed.
 */
export function expandCommand(cmd: Pick<CustomCommand, 'body'>, args: string): string {
  const all = args.trim();
  const words = splitWords(all);
  const uses = /\$ARGUMENTS|\$\d/.test(cmd.body);
  const out = cmd.body.replace(/\$ARGUMENTS|\$(\d+)/g, (_m, n: string | undefined) =>
    n === undefined ? all : (words[Number(n) - 1] ?? ''),
  );
  return uses || !all ? out : `${out}\n\n${all}`;
}

export interface FoundCommands {
  commands: Map<string, CustomCommand>;
  problems: CommandProblem[];
}

/** Every command in the two folders (personal first, so a project file of the same name wins). */
export async function findCommands(dirs: { user: string; project: string }): Promise<FoundCommands> {
  const found: FoundCommands = { commands: new Map(), problems: [] };
  for (const [source, dir] of [
    ['user', dirs.user],
    ['project', dirs.project],
  ] as const) {
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const entry of names.filter((n) => n.toLowerCase().endsWith('.md')).sort()) {
      const file = join(dir, entry);
      const name = entry.slice(0, -3);
      const text = await readFile(file, 'utf8').catch(() => undefined);
      const c =
        text === undefined || Buffer.byteLength(text) > MAX_COMMAND_BYTES
          ? ({ file, name, reason: 'unreadable' } as const)
          : await parseCommand(text, { name, file, source });
      if (isProblem(c)) found.problems.push(c);
      else found.commands.set(c.name, c);
    }
  }
  return found;
}

/** Where the commands of a folder and of the person live. */
export function commandDirs(cwd: string, configDir: string): { user: string; project: string } {
  return { user: join(configDir, 'commands'), project: join(cwd, '.zhi', 'commands') };
}
