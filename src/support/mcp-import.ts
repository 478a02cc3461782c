/**
 * `.mcp.json`, the file Claude Code (and others) keep MCP servers in, read as zhi's entries:
 * `{"mcpServers": {name: {command, args, env} | {type: "http" | "sse", url, headers}}}`. Each
 * entry becomes what `zhi mcp add` would write (trust: ask, the default); one zhi cannot use is
 * said, not guessed at.
 */
import { type McpProblem, mcpServerProblem } from './mcp-config.js';

export interface Imported {
  /** Entries to add to mcp_servers, by name. */
  servers: Record<string, Record<string, unknown>>;
  /** Entries left out and why. */
  problems: McpProblem[];
}

const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** One entry of `.mcp.json` in zhi's words (the keys zhi knows; `type` becomes `transport`). */
function entryOf(v: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (v.command !== undefined) out.command = v.command;
  if (v.args !== undefined) out.args = v.args;
  if (v.env !== undefined) out.env = v.env;
  if (v.url !== undefined) out.url = v.url;
  if (v.headers !== undefined) out.headers = v.headers;
  if (v.type === 'sse') out.transport = 'sse';
  return out;
}

/** The servers of a `.mcp.json` text; undefined when it is not one (not JSON, no `mcpServers`). */
export function importMcpJson(text: string): Imported | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  const list = isMap(data) ? data.mcpServers : undefined;
  if (!isMap(list)) return undefined;
  const out: Imported = { servers: {}, problems: [] };
  for (const [name, v] of Object.entries(list)) {
    const entry = isMap(v) ? entryOf(v) : v;
    const problem = mcpServerProblem(name, entry);
    if (problem) out.problems.push(problem);
    else out.servers[name] = entry as Record<string, unknown>;
  }
  return out;
}
