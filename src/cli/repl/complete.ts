import { readdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { SlashCommand, SlashContext } from './commands/types.js';
import { slashForm } from './input.js';

/** A directory entry as completion needs it. */
export interface Entry {
  name: string;
  dir: boolean;
}

export interface CompletionSource {
  commands: readonly SlashCommand[];
  ctx: SlashContext;
  cwd: string;
  home: string;
  listDir?: (dir: string) => Promise<Entry[]>;
}

/** readline's completer result: candidates, and the text before the cursor they replace. */
export type Completion = [string[], string];

async function defaultListDir(dir: string): Promise<Entry[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries.map((e) => ({ name: e.name, dir: e.isDirectory() }));
}

/**
 * Tab completion of the text before the cursor: slash command names; a command's own
 * arguments through its `complete()` (model names after /model, skill names after /run…);
 * otherwise the last word as a file path (relative, absolute or ~/, spaces escaped with `\`).
 */
export async function complete(typed: string, src: CompletionSource): Promise<Completion> {
  const ime = slashForm(typed);
  if (ime !== typed) {
    // `、he` completes like `/he`, and the 、 becomes a / on the line.
    const [hits] = await complete(ime, src);
    return [hits, typed];
  }
  const line = typed;
  if (line.startsWith('/') && !/\s/.test(line)) {
    const typed = line.slice(1).toLowerCase();
    const names = new Set<string>();
    for (const c of src.commands) {
      for (const n of [c.name, ...(c.aliases ?? [])]) if (n.startsWith(typed)) names.add(`/${n}`);
    }
    if (names.size === 1) return [[`${[...names][0]} `], line];
    if (names.size) return [[...names].sort(), line];
    // Not a command: maybe an absolute path.
    return completePath(line, src);
  }
  const cmd = /^\/([A-Za-z][\w-]*)\s+([\s\S]*)$/.exec(line);
  if (cmd) {
    const name = cmd[1]!.toLowerCase();
    const command = src.commands.find((c) => c.name === name || c.aliases?.includes(name));
    if (command?.complete) {
      const partial = cmd[2]!;
      let found: string[] = [];
      try {
        found = await command.complete(partial, src.ctx);
      } catch {
        found = [];
      }
      return argumentCompletion(partial, found);
    }
    if (command) return completePath(line, src);
  }
  if (!line.trim()) return [src.commands.map((c) => `/${c.name}`).sort(), line];
  return completePath(line, src);
}

/**
 * A command's candidates either replace all of its argument text (`show translate` for
 * `show tr`) or only the last word (`translate` for `show tr`).
 */
export function argumentCompletion(partial: string, found: string[]): Completion {
  if (!found.length) return [[], partial];
  const lower = partial.toLowerCase();
  if (found.every((f) => f.toLowerCase().startsWith(lower))) return [found, partial];
  const last = /(\S*)$/.exec(partial)![1]!;
  return [found.filter((f) => f.toLowerCase().startsWith(last.toLowerCase())), last];
}

/** The last word of the line, where a `\ ` does not end a word. */
export function lastWord(line: string): string {
  const m = /((?:\\ |[^\s])*)$/.exec(line);
  return m?.[1] ?? '';
}

const QUOTE_PAIRS: Record<string, string> = { "'": "'", '"': '"', '“': '”', '‘': '’', '「': '」' };

/** An opening quote with no closing one before the cursor: completion works inside it. */
export function openQuote(line: string): { quote: string; at: number } | undefined {
  let open: { quote: string; at: number } | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (open) {
      if (ch === QUOTE_PAIRS[open.quote]) open = undefined;
    } else if (QUOTE_PAIRS[ch] && (i === 0 || /\s/.test(line[i - 1]!))) open = { quote: ch, at: i };
  }
  return open;
}

const escapeSpaces = (s: string) => s.replace(/([ \\'"()&;])/g, '\\$1');
/** `\ ` and the like are escapes; a backslash before anything else separates Windows folders. */
const unescapeWord = (s: string) => s.replace(/\\([\s\\'"()&;])/g, '$1');

/**
 * Complete the path being typed: relative, absolute or ~/, with `/` or Windows `\` separators
 * (`.\no`, `zhi-output\清`), inside an open quote (`'My Fi` gives `'My File.pdf'`), ignoring
 * case (`rep` finds `Report.docx`; the typed text is replaced by the real name).
 */
export async function completePath(line: string, src: CompletionSource): Promise<Completion> {
  const quoted = openQuote(line);
  const typed = quoted ? line.slice(quoted.at + 1) : lastWord(line);
  // `@rep` completes like `rep`: the @ of a mention stays in front.
  const mention = !quoted && typed.startsWith('@') ? '@' : '';
  const raw = typed.slice(mention.length);
  if (!raw && !quoted && !mention) return [[], raw];
  const word = quoted ? raw : unescapeWord(raw);
  const sep = Math.max(word.lastIndexOf('/'), word.lastIndexOf('\\'));
  const dirPart = sep >= 0 ? word.slice(0, sep + 1) : '';
  const prefix = sep >= 0 ? word.slice(sep + 1) : word;
  const rawSep = Math.max(raw.lastIndexOf('/'), raw.lastIndexOf('\\'));
  const rawDir = quoted ? dirPart : rawSep >= 0 ? raw.slice(0, rawSep + 1) : '';
  const unixDir = dirPart.replace(/\\/g, '/');
  const base =
    unixDir === ''
      ? src.cwd
      : unixDir.startsWith('~/')
        ? resolve(src.home, unixDir.slice(2))
        : resolve(src.cwd, unixDir);
  let entries: Entry[];
  try {
    entries = await (src.listDir ?? defaultListDir)(base);
  } catch {
    return [[], typed];
  }
  const lower = prefix.toLowerCase();
  const folderSep = dirPart.includes('\\') && !dirPart.includes('/') ? '\\' : '/';
  const close = quoted ? QUOTE_PAIRS[quoted.quote]! : '';
  const hits = entries
    .filter(
      (e) => e.name.toLowerCase().startsWith(lower) && (prefix.startsWith('.') || !e.name.startsWith('.')),
    )
    .map((e) => mention + rawDir + (quoted ? e.name : escapeSpaces(e.name)) + (e.dir ? folderSep : close))
    .sort();
  return [hits, typed];
}
