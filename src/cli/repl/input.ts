/** What a submitted line is: nothing, a slash command, or a message for the model. */
export type Parsed =
  | { kind: 'empty' }
  | { kind: 'command'; name: string; args: string }
  | { kind: 'message'; text: string };

/** `!ls` or `！ls` (a Chinese input method types the full-width one): a command the person runs. */
export function bangCommand(text: string): string | undefined {
  const m = /^\s*[!！]([\s\S]*)$/.exec(text);
  return m ? m[1]!.trim() : undefined;
}

const COMMAND_WORD = /^\/([A-Za-z][\w-]*)?$/;
/** What a Chinese input method types for the `/` key: 、 in Chinese punctuation mode, ／ full width. */
const IME_SLASH = /^(\s*)[、／](?=[A-Za-z?]|\s*$)/;

/**
 * The line with a leading `、` or `／` read as `/` when a command name (or nothing) follows, so
 * `、help` and `／status` run instead of going to the model. Chinese text after them is left alone.
 */
export function slashForm(text: string): string {
  return text.replace(IME_SLASH, '$1/');
}

/**
 * `/model glm-4.7` is a command; `/path/to/file.pdf what is this` is a message (the first word
 * is a path, not a command name). A bare `/word` that is no command but names something on disk
 * (`/tmp`) is a message too; otherwise it is an unknown command (and gets a suggestion).
 */
export function classify(
  text: string,
  commands: ReadonlySet<string>,
  exists: (path: string) => boolean,
): Parsed {
  const trimmed = slashForm(text).trim();
  if (!trimmed) return { kind: 'empty' };
  if (!trimmed.startsWith('/')) return { kind: 'message', text };
  const m = /^(\S+)(?:\s+([\s\S]*))?$/.exec(trimmed)!;
  const word = m[1]!;
  const args = (m[2] ?? '').trim();
  if (!COMMAND_WORD.test(word)) return { kind: 'message', text };
  const name = word.slice(1).toLowerCase();
  if (commands.has(name)) return { kind: 'command', name, args };
  if (name && safeExists(exists, word)) return { kind: 'message', text };
  return { kind: 'command', name, args };
}

function safeExists(exists: (path: string) => boolean, p: string): boolean {
  try {
    return exists(p);
  } catch {
    return false;
  }
}

/** A line ending in an unescaped `\` continues on the next line. Returns the line without it. */
export function continues(line: string): string | undefined {
  const m = /(\\+)$/.exec(line);
  if (!m || m[1]!.length % 2 === 0) return undefined;
  return line.slice(0, -1);
}
