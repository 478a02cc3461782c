/**
 * An MCP call as a person reads it before saying yes: what the server wants to do in plain words
 * ("files wants to write notes.txt (46 B)"), the arguments folded (long texts cut to a few
 * lines), and a warning when an argument names a file that exists — the server acts under its
 * own rules, so "zhi never changes an existing file" does not protect it.
 */
import { statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { pushAll } from '../../support/arrays.js';
import { type MessageKey, t } from '../../support/i18n/index.js';
import { formatBytes } from '../../support/text.js';
import { toolStandingKey } from '../standing.js';
import type { Assessment } from '../types.js';
import type { ToolHints } from './convert.js';

type Verb = 'write' | 'edit' | 'delete' | 'move' | 'create' | 'read';

/** What a tool does, told by its name (`write_file`, `edit_file`, `move_file`, `read_text_file`…). */
const VERBS: [RegExp, Verb][] = [
  [/(^|_|-)(delete|remove|rm|unlink|trash)(_|-|$)/i, 'delete'],
  [/(^|_|-)(move|rename|mv)(_|-|$)/i, 'move'],
  [/(^|_|-)(write|save|put|overwrite|upload)(_|-|$)/i, 'write'],
  [/(^|_|-)(edit|update|patch|modify|replace|append|insert)(_|-|$)/i, 'edit'],
  [/(^|_|-)(create|mkdir|make|new|add)(_|-|$)/i, 'create'],
  [/(^|_|-)(read|get|list|search|show|view|find|stat|info|tree)(_|-|$)/i, 'read'],
];
const PATH_KEYS = ['path', 'file', 'file_path', 'filepath', 'filename', 'source', 'src', 'from'];
const TO_KEYS = ['destination', 'dest', 'target', 'to', 'new_path'];
const CONTENT_KEYS = ['content', 'contents', 'text', 'data', 'body'];

const SHOWN_LINES = 6;
const SHOWN_CHARS = 200;

export function verbOf(tool: string): Verb | undefined {
  return VERBS.find(([re]) => re.test(tool))?.[1];
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);
const pick = (args: Record<string, unknown>, keys: string[]) =>
  keys.map((k) => text(args[k])).find((v) => v !== undefined);

/** A path as the person knows it: relative to the folder they are in when it is inside. */
function shown(path: string, cwd: string): string {
  const abs = resolve(cwd, path);
  const rel = relative(cwd, abs);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : abs;
}

function isFile(path: string, cwd: string): boolean {
  try {
    return statSync(resolve(cwd, path)).isFile();
  } catch {
    return false;
  }
}

/** The first line: "<server> wants to <action>". */
export function mcpSentence(
  server: string,
  tool: string,
  args: Record<string, unknown>,
  cwd: string,
): string {
  const verb = verbOf(tool);
  const path = pick(args, PATH_KEYS);
  const content = pick(args, CONTENT_KEYS);
  let action = t('mcp.approve.run', { tool });
  if (verb && path) {
    const p = shown(path, cwd);
    if (verb === 'write' && content !== undefined) {
      const size = formatBytes(Buffer.byteLength(content, 'utf8'));
      action = t('mcp.approve.writeSized', { path: p, size });
    } else if (verb === 'move') {
      const to = pick(args, TO_KEYS);
      action = to
        ? t('mcp.approve.move', { path: p, to: shown(to, cwd) })
        : t('mcp.approve.edit', { path: p });
    } else action = t(`mcp.approve.${verb}` as MessageKey, { path: p });
  }
  return t('mcp.approve.wants', { server, action });
}

/** The arguments, one `name: value` each; long texts folded to their first lines. */
export function foldArgs(args: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(args)) {
    const raw = typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? String(value));
    const lines = raw.replace(/\n$/, '').split('\n');
    // "1 more line" would take the line it hides: a fold hides two or more.
    const fold = lines.length > SHOWN_LINES + 1;
    const head = (fold ? lines.slice(0, SHOWN_LINES) : lines).map((l) =>
      l.length > SHOWN_CHARS ? `${l.slice(0, SHOWN_CHARS)}…` : l,
    );
    if (head.length === 1) out.push(`${key}: ${head[0]}`);
    else pushAll(out, [`${key}:`, ...head.map((l) => `  ${l}`)]);
    if (fold) out.push(`  ${t('mcp.approve.more', { count: lines.length - SHOWN_LINES })}`);
  }
  return out;
}

/** The preview: the sentence, what the server says of the tool when it says it only reads, then the arguments folded. */
export function mcpPreview(
  server: string,
  tool: string,
  args: Record<string, unknown>,
  cwd: string,
  hints: ToolHints = {},
): string {
  const marked = hints.readOnly ? [t('mcp.approve.readOnly', { tool })] : [];
  return [mcpSentence(server, tool, args, cwd), ...marked, ...foldArgs(args)].join('\n');
}

/** Every string argument that names a file that exists (top level, and one level into lists). */
function existingFiles(args: Record<string, unknown>, cwd: string): string[] {
  const candidates: string[] = [];
  for (const v of Object.values(args)) {
    if (typeof v === 'string') candidates.push(v);
    else if (Array.isArray(v))
      pushAll(
        candidates,
        v.filter((x): x is string => typeof x === 'string'),
      );
  }
  return [...new Set(candidates.filter((c) => c.length < 1024 && !c.includes('\n') && isFile(c, cwd)))];
}

/**
 * The warning of a call that may change a file: the file it writes, changes or deletes exists
 * (said as what will happen to it), or some argument names an existing file. Reads say nothing.
 */
export function mcpWarning(tool: string, args: Record<string, unknown>, cwd: string): string | undefined {
  const verb = verbOf(tool);
  if (verb === 'read') return undefined;
  const path = pick(args, PATH_KEYS);
  const rules = t('mcp.approve.rules');
  if (path && isFile(path, cwd)) {
    const p = shown(path, cwd);
    if (verb === 'write') return `${t('mcp.approve.replaced', { path: p })} ${rules}`;
    if (verb === 'delete') return `${t('mcp.approve.deleted', { path: p })} ${rules}`;
    if (verb === 'edit' || verb === 'move') return `${t('mcp.approve.changed', { path: p })} ${rules}`;
  }
  const named = existingFiles(args, cwd)[0];
  return named ? `${t('mcp.approve.names', { path: shown(named, cwd) })} ${rules}` : undefined;
}

/** One MCP tool as its approval knows it. */
export interface McpToolRef {
  server: string;
  tool: string;
  hints?: ToolHints;
}

/**
 * The assessment: the warning (the server's own "destructive" first, then what an argument
 * names), and the standing answer "always allow this tool this session".
 */
export function mcpAssess(
  name: string,
  ref: McpToolRef,
  args: Record<string, unknown>,
  cwd: string,
): Assessment {
  const { server, tool } = ref;
  const marked = ref.hints?.destructive ? t('mcp.approve.destructive', { tool }) : undefined;
  const warning = [marked, mcpWarning(tool, args, cwd)].filter(Boolean).join(' ') || undefined;
  return {
    ...(warning ? { warning } : {}),
    standing: { key: toolStandingKey(name), label: t('mcp.approve.always', { tool }), mcp: { server, tool } },
  };
}

const LABEL_ARG_CHARS = 48;

/**
 * The tool line of a call: `files: list_directory docs` — the server, the tool and what it works
 * on (its path, else its first short text argument, on one line).
 */
export function mcpLabel(server: string, tool: string, args: Record<string, unknown>, cwd: string): string {
  const path = pick(args, [...PATH_KEYS, 'directory', 'dir', 'folder']);
  const first = path
    ? shown(path, cwd)
    : Object.values(args)
        .map(text)
        .find((v) => v && !v.includes('\n'));
  if (!first) return `${server}: ${tool}`;
  const one = first.replace(/\s+/g, ' ');
  return `${server}: ${tool} ${one.length > LABEL_ARG_CHARS ? `${one.slice(0, LABEL_ARG_CHARS - 1)}…` : one}`;
}
