/**
 * Where a problem in a skill file is: line numbers from the YAML tree, dotted field names, and
 * the issues the loader reports (the file, the line, the field, a catalogue message).
 */
import { isMap, isScalar, isSeq, type Node, type YAMLMap } from 'yaml';
import type { z } from 'zod';
import type { MessageKey } from '../support/i18n/index.js';

import { ARG_TYPES, type Skill, type SkillIssue } from './schema.js';

export interface LoadOutcome {
  skill?: Skill;
  /** Why the file cannot be used (empty when `skill` is set). */
  errors: SkillIssue[];
  /** Things worth fixing that do not stop the skill (unknown keys, ignored tools). */
  warnings: SkillIssue[];
}

export type LineAt = (offset: number | undefined) => number | undefined;

/**
 * yaml reports an unclosed quote at the end of the input; the person needs the line where the
 * quote was opened: the last `key: "…` line before that point whose quote is not closed.
 */
export function openQuoteLine(text: string, end: number): number | undefined {
  const lines = text.slice(0, end).split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = /^\s*(?:-\s+)?[^\s#"'][^:#]*:\s+(["'])(.*)$/.exec(lines[i]!);
    if (m && !m[2]!.trimEnd().endsWith(m[1]!)) return i + 1;
  }
  return undefined;
}

export function warnUnknown(
  map: YAMLMap,
  path: (string | number)[],
  known: readonly string[],
  out: SkillIssue[],
  file: string,
  lineAt: LineAt,
): void {
  for (const pair of map.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    if (known.includes(key)) continue;
    out.push(
      issue(
        file,
        'skills.warn.unknownKey',
        { key },
        lineAt((pair.key as Node | null)?.range?.[0]),
        fieldName([...path, key]),
      ),
    );
  }
}

export function keyLine(map: YAMLMap, key: string, lineAt: LineAt): number | undefined {
  const pair = map.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === key);
  return pair ? lineAt((pair.key as Node | null)?.range?.[0]) : undefined;
}

/** Locate a path in the YAML tree: the line of the deepest key or item that exists. */
function lineOfPath(root: Node, path: PropertyKey[], lineAt: LineAt): number | undefined {
  let node: unknown = root;
  let line = lineAt(root.range?.[0]);
  for (const seg of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => String(isScalar(p.key) ? p.key.value : p.key) === String(seg));
      if (!pair) return line;
      line = lineAt((pair.key as Node | null)?.range?.[0]) ?? line;
      node = pair.value;
    } else if (isSeq(node) && typeof seg === 'number') {
      const item = node.items[seg] as Node | undefined;
      if (!item) return line;
      line = lineAt(item.range?.[0]) ?? line;
      node = item;
    } else return line;
  }
  return line;
}

function valueAt(data: unknown, path: PropertyKey[]): unknown {
  let v: unknown = data;
  for (const seg of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[seg];
  }
  return v;
}

export function zodIssue(
  i: z.core.$ZodIssue,
  data: unknown,
  root: Node,
  file: string,
  lineAt: LineAt,
): SkillIssue {
  const path = i.path;
  const field = fieldName(path);
  const missing = i.code === 'invalid_type' && valueAt(data, path) === undefined;
  // A missing top-level field has no line of its own; a missing nested one is shown at its parent.
  const line = missing && path.length <= 1 ? undefined : lineOfPath(root, path, lineAt);
  let key = (missing ? 'skills.err.required' : i.message) as MessageKey;
  if (!key.startsWith('skills.')) key = 'skills.err.invalid';
  return {
    file,
    ...(line ? { line } : {}),
    ...(field ? { field } : {}),
    message: { key, params: { field, types: ARG_TYPES.join(', '), max: 50, detail: i.message } },
  };
}

export function fieldName(path: PropertyKey[]): string {
  let out = '';
  for (const seg of path) out += typeof seg === 'number' ? `[${seg}]` : out ? `.${String(seg)}` : String(seg);
  return out;
}

export function issue(
  file: string,
  key: MessageKey,
  params: Record<string, string | number>,
  line?: number,
  field?: string,
): SkillIssue {
  return { file, ...(line ? { line } : {}), ...(field ? { field } : {}), message: { key, params } };
}

export function fail(
  file: string,
  key: MessageKey,
  params: Record<string, string | number> = {},
  line?: number,
): LoadOutcome {
  return { errors: [issue(file, key, params, line)], warnings: [] };
}

export function firstLine(s: string): string {
  return s.split('\n')[0]!.trim();
}
