/**
 * tool_search: how the model finds deferred tools (an MCP server's, and a chat's rarely needed
 * built-ins: ocr, web_fetch, web_search). Their schemas are not sent with every request — 150
 * tools would pass the API's limit and cost more than the conversation — so the request carries
 * this small tool instead; the tools it finds are loaded into the registry and their full
 * schemas go out from the next request on (as Claude Code's tool search and Nyzhi's do).
 */
import { z } from 'zod';
import type { ToolRegistry } from '../registry.js';
import type { AnyTool, Tool } from '../types.js';

export const TOOL_SEARCH = 'tool_search';

const schema = z.object({
  query: z.string().describe('Keywords or "select:name1,name2".'),
  limit: z.number().int().min(1).max(10).optional(),
});

/** One group of deferred tools for the description: a server and how many tools it has. */
export interface ToolGroup {
  name: string;
  count: number;
  /** Still starting in the background: its tools are counted once it is up. */
  starting?: boolean;
}

/** What there is to find in each registry, as its newest tool_search says (servers start and stop). */
const offered = new WeakMap<ToolRegistry, string>();

/** The server a deferred tool belongs to: the part of its name before `__`. */
function groupOf(tool: AnyTool): string {
  const i = tool.name.indexOf('__');
  return i > 0 ? tool.name.slice(0, i) : '';
}

const words = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 1 || /\p{Script=Han}/u.test(w));

/** How well a tool matches the query words: its name counts most, then its server, then its description. */
export function score(tool: AnyTool, query: string[]): number {
  const name = tool.name.toLowerCase();
  const server = groupOf(tool).toLowerCase();
  const desc = tool.description.toLowerCase();
  let total = 0;
  for (const w of query) {
    if (name === w || name.endsWith(`__${w}`)) total += 10;
    else if (name.includes(w)) total += 4;
    if (server === w) total += 2;
    if (desc.includes(w)) total += 1;
  }
  return total;
}

/** The tools a query finds, best first (ties keep the servers' order). */
export function searchTools(tools: AnyTool[], query: string, limit: number): AnyTool[] {
  const q = query.trim();
  const select = /^select:(.*)$/i.exec(q);
  if (select) {
    const names = select[1]!.split(',').map((n) => n.trim());
    return names.flatMap((n) => tools.filter((t) => t.name === n)).slice(0, 10);
  }
  const ws = words(q);
  return tools
    .map((tool, i) => ({ tool, i, s: score(tool, ws) }))
    .filter((x) => x.s > 0)
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .slice(0, limit)
    .map((x) => x.tool);
}

/** The first sentence (or 160 characters) of a description, for the result list. */
function gist(description: string): string {
  const text = description.replace(/^\[MCP server "[^"]*"\]\s*/, '').replace(/\s+/g, ' ');
  const sentence = /^(.{20,160}?[.!?。])(\s|$)/.exec(text)?.[1];
  return sentence ?? (text.length > 160 ? `${text.slice(0, 159)}…` : text);
}

/**
 * The tool, for a registry whose deferred tools it searches. `groups` names the servers (with
 * their tool counts) in the description, so the model knows what there is to find.
 */
export function createToolSearchTool(registry: ToolRegistry, groups: ToolGroup[]): Tool<typeof schema> {
  const listed = groups.map((g) => `${g.name} (${g.starting ? 'starting' : g.count})`).join(', ');
  const builtins = registry
    .searchPhrases()
    .map((b) => `${b.name} (${b.phrase})`)
    .join(', ');
  const what = [builtins, listed && `MCP servers ${listed} (query a server's name to list its tools)`]
    .filter(Boolean)
    .join('; ');
  offered.set(registry, what);
  return {
    name: TOOL_SEARCH,
    description: `Add tools to your list, then call them: ${what}.`,
    schema,
    kind: 'read',
    label: (args) => args.query,
    execute: async (args, ctx) => {
      // Servers still starting are waited for: their tools are what the model may be looking for.
      const settled = await registry.pending?.settle();
      for (const message of settled?.warnings ?? []) {
        const event: { type: 'warning'; message: string } = { type: 'warning', message };
        ctx.emit(event);
      }
      const answer = search(registry, args);
      // Nothing found: the servers that did not start may be why.
      const failed = settled?.failed.length && !answer.found;
      return failed ? `${answer.text}\n(Not available: ${settled.failed.join('; ')}.)` : answer.text;
    },
  };
}

/** The answer to one query: a server's tool names, or the tools found (loaded into the registry). */
function search(registry: ToolRegistry, args: z.infer<typeof schema>): { text: string; found: boolean } {
  const q = args.query.trim().toLowerCase();
  const ofServer = registry.deferred().filter((t) => groupOf(t).toLowerCase() === q);
  if (ofServer.length) {
    // A server's whole list, by name only: the model then loads what it needs.
    const names = ofServer.map((t) => t.name).join(', ');
    const text = `The server ${args.query.trim()} has ${ofServer.length} tool(s): ${names}. Load the ones you need with "select:name1,name2", or search by keywords.`;
    return { text, found: true };
  }
  const found = searchTools(registry.deferred(), args.query, args.limit ?? 5);
  if (!found.length) {
    const text = `No tool matches "${args.query}". There are: ${offered.get(registry) ?? ''}. Try other keywords.`;
    return { text, found: false };
  }
  registry.load(found.map((t) => t.name));
  const lines = found.map((t) => `- ${t.name}: ${gist(t.description)}`);
  const text = `Found ${found.length} tool(s); their full schemas are now in your tool list, call them directly:\n${lines.join('\n')}`;
  return { text, found: true };
}

/**
 * Offer tool_search while the registry defers anything (made again when the deferred tools
 * change: an MCP server started or stopped), naming these servers' groups.
 */
export function offerToolSearch(registry: ToolRegistry, groups: ToolGroup[]): void {
  if (registry.has(TOOL_SEARCH)) registry.unregister(TOOL_SEARCH);
  if (groups.length || registry.searchPhrases().length) {
    registry.register(createToolSearchTool(registry, groups));
  }
}
