/**
 * An MCP server's prompts: ready-made messages the person sends as slash commands
 * (`/mcp__<server>__<prompt> args…`, cli/mcp/prompts.ts). The server's messages become one
 * message of the person's (they chose to send it); resources embedded in it are marked as data.
 */
import { untrusted } from '../../support/untrusted.js';
import type { McpConnection, McpPromptInfo } from './connection.js';

export const PROMPT_PREFIX = 'mcp__';

/** A prompt with its server, as the slash command `/mcp__<server>__<prompt>` names it. */
export interface ServerPrompt extends McpPromptInfo {
  server: string;
  command: string;
}

export function promptCommand(server: string, prompt: string): string {
  return `${PROMPT_PREFIX}${server}__${prompt}`.toLowerCase();
}

interface PromptContent {
  type: string;
  text?: string;
  resource?: { uri?: string; text?: string; mimeType?: string };
}

/** The prompt's messages as one text (an assistant part said as such; binary parts named). */
export async function promptText(
  c: McpConnection,
  name: string,
  args: Record<string, string>,
): Promise<string> {
  const client = await c.ready();
  const r = await client.getPrompt({ name, arguments: args }, { timeout: c.callTimeoutMs });
  const parts: string[] = [];
  for (const m of r.messages as { role: string; content: PromptContent }[]) {
    const body = contentText(m.content, c.name);
    parts.push(m.role === 'assistant' ? `(The assistant answered before:)\n${body}` : body);
  }
  return parts.join('\n\n');
}

function contentText(content: PromptContent, server: string): string {
  if (content.type === 'text' && typeof content.text === 'string') return content.text;
  if (content.type === 'resource' && content.resource) {
    const uri = content.resource.uri ?? '';
    if (typeof content.resource.text === 'string')
      return `<resource uri="${uri.replace(/[\r\n"<>]/g, ' ')}">\n${untrusted(content.resource.text, `MCP server ${server}, resource ${uri}`)}\n</resource>`;
    return `[resource ${uri}: ${content.resource.mimeType ?? 'binary'}]`;
  }
  return `[${content.type} from the server]`;
}
