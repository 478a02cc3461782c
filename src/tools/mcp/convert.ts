/**
 * MCP tools as zhi tools: names (`<server>__<tool>`), kinds, and call results (text, images, resources) turned into tool results.
 */
import { z } from 'zod';
import type { McpAnnotations, McpTrust } from '../../support/mcp-config.js';
import { formatBytes } from '../../support/text.js';
import type { ToolKind, ToolTraits } from '../types.js';
import type { McpImage } from './vision.js';

export const MCP_SEPARATOR = '__';

/** The name the model sees: `files__read_text_file`, within the 64 characters a tool name may have. */
export function mcpToolName(server: string, tool: string): string {
  return `${server}${MCP_SEPARATOR}${tool.replace(/[^a-zA-Z0-9_-]/g, '_')}`.slice(0, 64);
}

/** What the server says of one tool (its annotations), as far as the person lets it count. */
export interface ToolHints {
  /** `readOnlyHint: true`: it does not change its environment. */
  readOnly?: boolean;
  /** `destructiveHint: true`: it may delete or overwrite. */
  destructive?: boolean;
}

/**
 * A tool's hints from its annotations, unless the server's entry says `annotations: ignore`.
 * The spec lets `destructiveHint` count only when `readOnlyHint` is false; a tool marked both is
 * taken at its worse word here: destructive, and not read-only.
 */
export function toolHints(annotations: unknown, setting: McpAnnotations = 'trust'): ToolHints {
  if (setting === 'ignore' || typeof annotations !== 'object' || annotations === null) return {};
  const a = annotations as { readOnlyHint?: unknown; destructiveHint?: unknown };
  const destructive = a.destructiveHint === true;
  const readOnly = a.readOnlyHint === true && !destructive;
  return { ...(readOnly ? { readOnly } : {}), ...(destructive ? { destructive } : {}) };
}

/**
 * How the one permission policy treats a tool: by the server's `trust`, and a tool the server
 * marks read-only as `read` (no action question; what it sends still goes by the egress rule).
 */
export function mcpKind(trust: McpTrust, hints: ToolHints = {}): ToolKind {
  if (trust === 'read' || hints.readOnly) return 'read';
  return trust === 'auto' ? 'mcp-auto' : 'mcp';
}

/** What zhi checks before a call: an object (the server checks the rest against its schema). */
export const MCP_ARGS = z.record(z.string(), z.unknown());

/** The traits of a server's tool while the servers bring more tools than a request should carry. */
export const ON_SEARCH: ToolTraits = { offer: 'on-search' };

interface ContentItem {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  resource?: { uri?: string; text?: string; blob?: string; mimeType?: string };
}

export interface CallResultLike {
  content?: ContentItem[];
  structuredContent?: unknown;
  isError?: boolean;
  toolResult?: unknown;
}

const approxBytes = (base64: string) => Math.floor((base64.length * 3) / 4);

/** The images of a call result, in order (they go to a vision model: see vision.ts). */
export function resultImages(r: CallResultLike): McpImage[] {
  return (r.content ?? [])
    .filter((c) => c.type === 'image' && typeof c.data === 'string')
    .map((c) => ({ data: c.data!, mimeType: c.mimeType ?? 'application/octet-stream' }));
}

/**
 * One call result as text for the model. Binary parts are described, never pasted; `images`
 * gives the text of each image in order (a vision model's description) instead of a plain note;
 * `reader` names the server's resources tool, through which a resource link is followed.
 */
export function resultText(r: CallResultLike, images: readonly string[] = [], reader?: string): string {
  const parts: string[] = [];
  let image = 0;
  for (const c of r.content ?? []) {
    if (c.type === 'text' && typeof c.text === 'string') parts.push(c.text);
    else if (c.type === 'image' && typeof c.data === 'string' && images[image] !== undefined)
      parts.push(images[image++]!);
    else if (c.type === 'image' || c.type === 'audio') {
      parts.push(
        `[${c.type} from the server: ${c.mimeType ?? 'unknown type'}, ${formatBytes(approxBytes(c.data ?? ''))}]`,
      );
    } else if (c.type === 'resource' && c.resource) {
      if (typeof c.resource.text === 'string')
        parts.push(`<resource uri="${c.resource.uri ?? ''}">\n${c.resource.text}\n</resource>`);
      else
        parts.push(
          `[resource ${c.resource.uri ?? ''}: ${c.resource.mimeType ?? 'binary'}, ${formatBytes(approxBytes(c.resource.blob ?? ''))}]`,
        );
    } else if (c.type === 'resource_link') {
      // A link the model may follow: through the server's resources tool, when it has one.
      const follow = reader ? ` (read it with ${reader} {"uri": ${JSON.stringify(c.uri ?? '')}})` : '';
      parts.push(`[resource link: ${c.name ?? ''} ${c.uri ?? ''}${follow}]`);
    }
  }
  if (!parts.length && r.structuredContent !== undefined)
    parts.push(JSON.stringify(r.structuredContent, null, 2));
  if (!parts.length && r.toolResult !== undefined) parts.push(JSON.stringify(r.toolResult, null, 2));
  return parts.join('\n\n') || '(the tool returned nothing)';
}
