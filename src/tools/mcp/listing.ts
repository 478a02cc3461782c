/**
 * What a connection knows of its server, made from the SDK's lists: the tools (filtered by the
 * entry's include/exclude, with their annotations as far as they count) and the prompts; and the
 * client itself, which answers the server's `roots/list` with the working folder and re-reads
 * the lists when the server says they changed (`notifications/…/list_changed`).
 */
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Prompt, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from '../../support/mcp-config.js';
import { type ToolHints, toolHints } from './convert.js';

export interface McpToolInfo {
  name: string;
  description?: string;
  inputSchema: unknown;
  /** Its annotations, as far as they count (`annotations:` of the server's entry). */
  hints: ToolHints;
}

/** A prompt the server offers (a slash command in the chat: `/mcp__<server>__<name>`). */
export interface McpPromptInfo {
  name: string;
  description?: string;
  arguments: { name: string; description?: string; required?: boolean }[];
}

export function toolInfos(tools: Tool[], config: McpServerConfig): McpToolInfo[] {
  return tools
    .filter((t) => !config.include || config.include.includes(t.name))
    .filter((t) => !config.exclude?.includes(t.name))
    .map((t) => ({
      name: t.name,
      ...(t.description ? { description: t.description } : {}),
      inputSchema: t.inputSchema,
      hints: toolHints(t.annotations, config.annotations),
    }));
}

export function promptInfos(prompts: Prompt[]): McpPromptInfo[] {
  return prompts.map((p) => ({
    name: p.name,
    ...(p.description ? { description: p.description } : {}),
    arguments: (p.arguments ?? []).map((a) => ({
      name: a.name,
      ...(a.description ? { description: a.description } : {}),
      ...(a.required ? { required: true } : {}),
    })),
  }));
}

/**
 * What the client tells its connection when the server says a list changed: at once (no
 * debounce, no automatic re-read), so the connection re-reads it itself and a search or a call
 * made meanwhile can wait for that (the notification comes before the result that caused it).
 */
export interface ListChanges {
  tools(): void;
  prompts(): void;
}

/**
 * A client whose one root is the working folder (servers that scope themselves to the client's
 * roots, as the filesystem server does, see that folder), following list changes. Resources
 * need nothing here: the resources tool reads the server's list each time.
 */
export async function newClient(cwd: string, changes: ListChanges): Promise<Client> {
  const [{ Client }, { ListRootsRequestSchema }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  const client = new Client(
    { name: 'zhi', version: __ZHI_VERSION__ },
    {
      capabilities: { roots: { listChanged: false } },
      listChanged: {
        tools: { autoRefresh: false, debounceMs: 0, onChanged: () => changes.tools() },
        prompts: { autoRefresh: false, debounceMs: 0, onChanged: () => changes.prompts() },
      },
    },
  );
  client.setRequestHandler(ListRootsRequestSchema, async () => ({
    roots: [{ uri: pathToFileURL(cwd).href, name: basename(cwd) || cwd }],
  }));
  return client;
}
