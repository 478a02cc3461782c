/**
 * The Agent Skills specification's rules for a SKILL.md front matter (agentskills.io/specification)
 * and the leniencies its client guide asks for: names, description length, `allowed-tools` with
 * scopes such as `Bash(python3:*)`, and values with an unquoted colon.
 */
import type { MessageKey } from '../support/i18n/index.js';
import { TOOL_ALIASES } from '../tools/aliases.js';
import { SHELL_TOOL } from '../tools/shell/entry.js';
import { isValidSkillName } from './schema.js';

export const MAX_SPEC_NAME = 64;
export const MAX_DESCRIPTION = 1024;

/** Lowercase letters, digits and single hyphens, not at either end. */
const SPEC_NAME_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Why a SKILL.md `name` breaks the specification, or undefined when it is fine. */
export function specNameProblem(
  name: string,
  folder: string,
): { key: MessageKey; params: Record<string, string> } | undefined {
  if (name.length > MAX_SPEC_NAME || !SPEC_NAME_RE.test(name)) {
    return { key: 'skills.spec.name', params: { name, used: isValidSkillName(name) ? name : folder } };
  }
  if (name !== folder) return { key: 'skills.spec.folder', params: { name, folder } };
  return undefined;
}

/**
 * The client guide's fallback for hand-written front matter: `description: Use it when: …` is
 * not valid YAML (a second `: ` starts a mapping), yet skills in the wild are written that way.
 * Top-level `key: value` lines whose plain value contains `: ` are quoted; everything else is
 * left alone. Returns undefined when nothing needed quoting (the error was something else).
 */
export function quoteColonValues(yaml: string): string | undefined {
  let changed = false;
  const lines = yaml.split('\n').map((line) => {
    const m = /^([A-Za-z_][\w-]*):[ \t]+(.+)$/.exec(line);
    if (!m) return line;
    const value = m[2]!.trim();
    if (/^["'[{>|&*!]/.test(value) || !value.includes(': ')) return line;
    changed = true;
    return `${m[1]}: ${JSON.stringify(value)}`;
  });
  return changed ? lines.join('\n') : undefined;
}

/**
 * Instructions that have the model write and run code (Anthropic's document skills: "write a
 * Python script using openpyxl"): such a skill gets run_script when it names no tools.
 */
export function asksForCode(body: string): boolean {
  return /\b(python3?|node(\.js)?|javascript|typescript)\b|\.(py|mjs|cjs|js)\b|\bscripts?\b/i.test(body);
}

export interface MappedTools {
  tools?: string[];
  ignored: string[];
  /**
   * `Bash(python3:*)`, `Bash(git status:*)`: the command prefixes the shell is limited to.
   * Undefined when the shell is allowed without a scope (or not at all).
   */
  shellScopes?: string[];
}

/**
 * Split `allowed-tools` into entries. The spec writes them space-separated, but a scope may
 * itself contain spaces (`Bash(git status:*)`), so spaces inside parentheses do not split.
 */
function entries(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  const out: string[] = [];
  let cur = '';
  let depth = 0;
  for (const ch of String(value)) {
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && /[\s,]/.test(ch)) {
      if (cur) out.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (cur) out.push(cur);
  return out;
}

export function mapAllowedTools(value: unknown): MappedTools {
  if (value === undefined || value === null) return { ignored: [] };
  const tools: string[] = [];
  const ignored: string[] = [];
  const scopes: string[] = [];
  let unscopedShell = false;
  for (const raw of entries(value)) {
    const entry = raw.trim();
    const m = /^([^()]+?)\s*(?:\((.*)\))?$/.exec(entry);
    const name = m?.[1]?.trim() ?? '';
    if (!name) continue;
    // Claude's name for an MCP tool, `mcp__github__create_issue` (or `mcp__github__*`): zhi gives
    // a skill a whole server (`mcp:github`), in `zhi run` as in chat.
    const server = /^mcp__([A-Za-z0-9][A-Za-z0-9_-]*?)__.+$/.exec(name)?.[1];
    if (server) {
      if (!tools.includes(`mcp:${server}`)) tools.push(`mcp:${server}`);
      continue;
    }
    const mapped = TOOL_ALIASES[name.toLowerCase()] ?? (/^[a-z][a-z0-9_-]*$/.test(name) ? name : undefined);
    if (!mapped) {
      ignored.push(entry);
      continue;
    }
    if (!tools.includes(mapped)) tools.push(mapped);
    if (mapped !== SHELL_TOOL.name) continue;
    const scope = m?.[2]?.trim();
    // `Bash(python3:*)` and `Bash(python3 *)` both mean "commands that start with python3".
    const prefix = scope?.replace(/:?\s*\*$/, '').trim();
    if (prefix && prefix !== '*') scopes.push(prefix);
    else unscopedShell = true;
  }
  return { tools, ignored, ...(scopes.length && !unscopedShell ? { shellScopes: scopes } : {}) };
}
