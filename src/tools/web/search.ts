/**
 * web_search: the platform's own search (`POST {base}/web_search`, reference §8.2), so the answer
 * rests on sources the model actually got. The result lists each source with its link; the
 * person sees the titles and links under the tool line; each use is counted in the ledger as a
 * call of the `web-search` price entry (about ¥0.01 / $0.01 a search).
 */
import { z } from 'zod';
import { failureForModel } from '../../llm/failure-for-model.js';
import type { PlatformClient } from '../../llm/types.js';
import { t } from '../../support/i18n/index.js';
import { untrusted } from '../../support/untrusted.js';
import { type Tool, type ToolContext, ToolError } from '../types.js';
import { WEB_SEARCH_TOOL } from './entries.js';

const RECENCY = ['oneDay', 'oneWeek', 'oneMonth', 'oneYear', 'noLimit'] as const;

const schema = z.object({
  query: z.string().trim().min(1).max(200).describe('Short keywords.'),
  recency: z.enum(RECENCY).optional(),
  domain: z.string().trim().max(200).optional().describe('Only this site.'),
  count: z.number().int().min(1).max(20).optional(),
});

export interface SearchSource {
  title: string;
  link: string;
  content: string;
  media?: string;
  publishDate?: string;
}

/** The engine each platform serves (reference §8.2: BigModel search_std…, Z.ai search-prime). */
export function engineFor(pricing: 'bigmodel' | 'zai'): string {
  return pricing === 'zai' ? 'search-prime' : 'search_std';
}

/** The ledger entry a search is priced as (llm/model-data.ts). */
export const WEB_SEARCH_PRICE_ID = 'web-search';

interface RawResult {
  title?: unknown;
  content?: unknown;
  link?: unknown;
  media?: unknown;
  publish_date?: unknown;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

export function parseSources(body: unknown): SearchSource[] {
  const list = (body as { search_result?: unknown })?.search_result;
  if (!Array.isArray(list)) return [];
  return (list as RawResult[])
    .map((r) => ({
      title: text(r.title).trim(),
      link: text(r.link).trim(),
      content: text(r.content).trim(),
      ...(text(r.media) ? { media: text(r.media) } : {}),
      ...(text(r.publish_date) ? { publishDate: text(r.publish_date) } : {}),
    }))
    .filter((s) => s.link || s.content);
}

/** For the model: numbered sources, each with its link, and how to cite them. */
export function formatSources(query: string, sources: SearchSource[]): string {
  if (!sources.length)
    return `No results for "${query}". Say so; do not answer from memory as if it were a search result.`;
  const blocks = sources.map((s, i) => {
    const meta = [s.link, s.media, s.publishDate].filter(Boolean).join(' · ');
    return `[${i + 1}] ${s.title || '(untitled)'}\n${meta}\n${s.content.slice(0, 1500)}`;
  });
  // The sources' words come from the web: data inside a boundary (support/untrusted.ts).
  return `${untrusted(blocks.join('\n\n'), `web search results for: ${query}`)}\n\nCite only these sources, by number and link. Do not cite anything these results do not contain.`;
}

async function search(
  client: PlatformClient,
  args: z.infer<typeof schema>,
  ctx: ToolContext,
): Promise<unknown> {
  const body = {
    search_query: args.query,
    search_engine: engineFor(ctx.usage.platform.pricing),
    search_intent: false,
    count: args.count ?? 5,
    ...(args.domain ? { search_domain_filter: args.domain } : {}),
    search_recency_filter: args.recency ?? 'noLimit',
    content_size: 'medium',
  };
  const answer = await client.http.json<unknown>({ path: '/web_search', json: body, signal: ctx.signal });
  if (!answer.ok) throw new ToolError(failureForModel('The web search', answer.error));
  return answer.value;
}

/** What web_search is built with: the API client whose address, key and fetch it searches through. */
export interface WebSearchToolDeps {
  client: PlatformClient;
}

export function createWebSearchTool({ client }: WebSearchToolDeps): Tool<typeof schema> {
  return {
    name: WEB_SEARCH_TOOL.name,
    traits: WEB_SEARCH_TOOL.traits,
    description: 'Search the web for current facts: numbered sources with links, cite only those.',
    schema,
    kind: 'read',
    // Every query asks (agent/egress.ts): the words are what the model chose to send.
    egress: (args) => [
      {
        kind: 'query',
        text: args.domain ? `${args.query} (site: ${args.domain})` : args.query,
        to: 'web search',
      },
    ],
    assess: () => ({ summary: { text: t('safety.search.each'), risky: false } }),
    label: (args) => `"${args.query}"`,
    async execute(args, ctx) {
      const json = await search(client, args, ctx);
      ctx.reportUsage(WEB_SEARCH_PRICE_ID, {
        promptTokens: 0,
        completionTokens: 0,
        totalTokens: 0,
        cachedTokens: 0,
        reasoningTokens: 0,
      });
      const sources = parseSources(json);
      return {
        content: formatSources(args.query, sources),
        display: sources.map((s, i) => `[${i + 1}] ${s.title || s.link} — ${s.link}`),
      };
    },
  };
}
