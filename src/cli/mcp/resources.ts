/**
 * `@<server>:<uri>` in a message (the REPL's and `zhi -c`'s): the person attaches a resource of
 * one of their MCP servers, as they attach a file with `@file`. The server is waited for (it may
 * still be starting), the resource read, cut to the attachments' limit and added to the message
 * as untrusted text. A name that is not a configured server is left alone (an e-mail address, a
 * handle). The person typed the uri, so reading it asks nothing.
 */
import type { ContentPart } from '../../llm/types.js';
import { t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';
import { formatBytes, truncateText } from '../../support/text.js';
import { untrusted } from '../../support/untrusted.js';
import { MAX_ATTACH_BYTES } from '../repl/attach/attach.js';
import type { ChatMcp } from './chat.js';

export interface ResourceMention {
  server: string;
  uri: string;
}

/** `@server:uri`, the uri ending at a space or at Chinese punctuation glued after it. */
const MENTION =
  /(^|[\s(（「“"'])@([a-zA-Z0-9][a-zA-Z0-9_-]{0,29}):([^\s，。；：！？、（）「」『』【】《》“”‘’…]+)/g;
/** Sentence punctuation glued after the uri. */
const TRAILING = /[,.;!?，。；！？、)）」』”’"']+$/;

/** The resources a message names, of these servers only, each once. */
export function resourceMentions(text: string, servers: readonly string[]): ResourceMention[] {
  const out: ResourceMention[] = [];
  for (const m of text.matchAll(MENTION)) {
    const server = m[2]!;
    const uri = m[3]!.replace(TRAILING, '');
    if (!servers.includes(server) || !uri) continue;
    if (!out.some((o) => o.server === server && o.uri === uri)) out.push({ server, uri });
  }
  return out;
}

/**
 * Read the resources a message names; returns the blocks to add to the message. Each is said
 * in one line (`note`), a cut or a failure too.
 */
export async function attachResources(
  text: string,
  mcp: ChatMcp | undefined,
  note: (line: string) => void,
  signal?: AbortSignal,
): Promise<string[]> {
  const mentions = mcp ? resourceMentions(text, mcp.servers()) : [];
  if (!mcp || !mentions.length) return [];
  const manager = await mcp.ensure();
  const blocks: string[] = [];
  for (const { server, uri } of mentions) {
    const shown = { server, uri: visible(uri) };
    const got = await manager.personResource(server, uri, signal);
    if ('failed' in got) {
      note(t('mcp.resource.failed', { ...shown, reason: got.failed }));
      continue;
    }
    const cut = truncateText(got.read.text, MAX_ATTACH_BYTES);
    const source = `MCP server ${server}, resource ${uri}`;
    const attr = (v: string) => v.replace(/[\r\n"<>]/g, ' ');
    blocks.push(
      `<resource server="${server}" uri="${attr(uri)}">\n${untrusted(cut.text, source)}\n</resource>`,
    );
    note(t('mcp.resource.attached', { ...shown, size: formatBytes(got.read.bytes) }));
    if (cut.truncated) note(t('mcp.resource.cut', { ...shown, size: formatBytes(MAX_ATTACH_BYTES) }));
  }
  return blocks;
}

/** A message's content with the resource blocks after its text (images, if any, stay after). */
export function withBlocks(content: string | ContentPart[], blocks: string[]): string | ContentPart[] {
  if (!blocks.length) return content;
  const tail = `\n\n${blocks.join('\n\n')}`;
  if (typeof content === 'string') return content + tail;
  const i = content.findIndex((p) => p.type === 'text');
  if (i < 0) return [{ type: 'text', text: tail.trimStart() }, ...content];
  return content.map((p, j) => (j === i && p.type === 'text' ? { ...p, text: p.text + tail } : p));
}
