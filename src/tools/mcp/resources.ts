/**
 * An MCP server's resources (files, records, documents it exposes by URI): one deferred tool per
 * server that offers them, `<server>__resources`, which lists them (and the templates of the URIs
 * it can make) without a `uri`, and reads one with it; and the same read for the person's
 * `@<server>:<uri>` attachments (cli/mcp/resources.ts). What a server returns is untrusted text.
 */
import { z } from 'zod';
import { pushAll } from '../../support/arrays.js';
import { visible } from '../../support/sanitize.js';
import { formatBytes } from '../../support/text.js';
import { untrusted, untrustedLine } from '../../support/untrusted.js';
import type { AnyTool } from '../types.js';
import type { McpConnection } from './connection.js';
import { linkedSignal } from './connection.js';
import { mcpToolName, ON_SEARCH } from './convert.js';

/** At most this many resources (and as many templates) are listed: a folder server may hold thousands. */
const MAX_LISTED = 200;
/** Pages of the server's list read before stopping (each page is one request). */
const MAX_PAGES = 5;

export const RESOURCE_TOOL = 'resources';

interface ResourceContent {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

/** One resource read: its parts as text (binary ones described), and its size in bytes. */
export interface ResourceRead {
  text: string;
  bytes: number;
}

const approxBytes = (base64: string) => Math.floor((base64.length * 3) / 4);

/** Read one resource; binary parts are described, never pasted. */
export async function readResource(
  c: McpConnection,
  uri: string,
  signal?: AbortSignal,
): Promise<ResourceRead> {
  const client = await c.ready();
  const linked = signal ? linkedSignal(signal) : undefined;
  try {
    const r = await client.readResource(
      { uri },
      { timeout: c.callTimeoutMs, ...(linked ? { signal: linked.signal } : {}) },
    );
    const parts = (r.contents as ResourceContent[]).map((p) =>
      typeof p.text === 'string'
        ? { text: p.text, bytes: Buffer.byteLength(p.text, 'utf8') }
        : {
            text: `[${p.uri}: ${p.mimeType ?? 'binary'}, ${formatBytes(approxBytes(p.blob ?? ''))}, not text]`,
            bytes: approxBytes(p.blob ?? ''),
          },
    );
    return {
      text: parts.map((p) => p.text).join('\n\n') || '(the resource is empty)',
      bytes: parts.reduce((n, p) => n + p.bytes, 0),
    };
  } finally {
    linked?.release();
  }
}

interface Listed {
  uri?: string;
  uriTemplate?: string;
  name?: string;
  mimeType?: string;
  description?: string;
}

/** One line per resource: its URI, name and type, and its description's first words. */
function line(r: Listed): string {
  const what = [r.name, r.mimeType].filter(Boolean).join(', ');
  const desc = r.description ? `: ${r.description.replace(/\s+/g, ' ').slice(0, 160)}` : '';
  return `- ${r.uri ?? r.uriTemplate}${what ? ` (${what})` : ''}${desc}`;
}

/** The server's resources and resource templates, as text for the model. */
export async function listResources(c: McpConnection, signal?: AbortSignal): Promise<string> {
  const client = await c.ready();
  const options = { timeout: c.callTimeoutMs, ...(signal ? { signal } : {}) };
  const resources: Listed[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES && resources.length < MAX_LISTED; page++) {
    const r = await client.listResources(cursor ? { cursor } : undefined, options);
    pushAll(resources, r.resources as Listed[]);
    cursor = r.nextCursor;
    if (!cursor) break;
  }
  // Templates are optional for a server: one that has none may answer with an error.
  const templates = await client
    .listResourceTemplates(undefined, options)
    .then((r) => r.resourceTemplates as Listed[])
    .catch(() => []);
  const out = [
    resources.length
      ? `Resources:\n${resources.slice(0, MAX_LISTED).map(line).join('\n')}`
      : 'The server lists no resources.',
  ];
  if (resources.length > MAX_LISTED || cursor) out.push(`(only the first ${MAX_LISTED} are listed)`);
  if (templates.length)
    out.push(
      `Resource templates (fill in the {placeholders} to make a uri):\n${templates.slice(0, MAX_LISTED).map(line).join('\n')}`,
    );
  return visible(out.join('\n\n'), { keepNewlines: true });
}

const schema = z.object({
  uri: z.string().optional().describe('The resource to read; leave out to list what there is.'),
});

/** The `<server>__resources` tool of a server that offers resources. */
export function resourceTool(c: McpConnection, deferred: boolean): AnyTool {
  const tool: AnyTool = {
    name: mcpToolName(c.name, RESOURCE_TOOL),
    description: untrustedLine(
      `List the resources (documents, records, files) of the MCP server "${c.name}", or read one by its uri. Without uri: the list, with the templates of uris it can make.`,
      `MCP server "${c.name}"`,
    ),
    schema,
    // Reading a resource changes nothing; the uri the model composed still goes by the egress rule.
    kind: 'read',
    ...(deferred ? { traits: ON_SEARCH } : {}),
    egress: (args: { uri?: string }) => [
      { kind: 'args', text: args.uri ?? '', to: `MCP ${c.name}`, trusted: c.config.egress === true },
    ],
    label: (args: { uri?: string }) => `${c.name}: ${args.uri ? visible(args.uri) : RESOURCE_TOOL}`,
    execute: async (args: { uri?: string }, ctx) => {
      const source = `MCP server ${c.name}, resource ${args.uri ?? 'list'}`;
      if (!args.uri) return untrusted(await listResources(c, ctx.signal), source);
      const read = await readResource(c, args.uri, ctx.signal);
      return untrusted(read.text, source);
    },
  };
  return tool;
}
