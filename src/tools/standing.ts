/**
 * The keys of standing approvals ("always allow … this session", Assessment.standing): made
 * here, read here, so that `/status` can list what a session allowed.
 */

export type StandingGrant =
  | { kind: 'tool'; tool: string }
  | { kind: 'prefix'; words: string[] }
  | { kind: 'exact'; words: string[] };

export function toolStandingKey(tool: string): string {
  return `tool:${tool}`;
}

/** A shell command prefix (`exact`: the whole command, word for word). */
export function shellStandingKey(words: readonly string[], exact: boolean): string {
  return `${exact ? 'shell=' : 'shell:'}${JSON.stringify(words)}`;
}

/** What a key allows, or undefined for a key of no known form. */
export function readStandingKey(key: string): StandingGrant | undefined {
  if (key.startsWith('tool:')) return { kind: 'tool', tool: key.slice(5) };
  const kind = key.startsWith('shell:') ? 'prefix' : key.startsWith('shell=') ? 'exact' : undefined;
  if (!kind) return undefined;
  try {
    const words: unknown = JSON.parse(key.slice(6));
    if (Array.isArray(words) && words.every((w) => typeof w === 'string')) return { kind, words };
  } catch {
    // not a key this module made
  }
  return undefined;
}

/** Words as a person would type them (a word with spaces in quotes). */
export function showWords(words: readonly string[]): string {
  return words.map((w) => (/\s/.test(w) || w === '' ? JSON.stringify(w) : w)).join(' ');
}
