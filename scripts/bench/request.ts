/**
 * The weight of one request: what `zhi -c hello` sends to the API (bytes of the body, and prompt
 * tokens by the repo's own estimator over the messages and the tool schemas).
 * Run by scripts/bench.mjs (bundled with esbuild); `measure()` returns the rows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { estimateTextTokens } from '../../src/agent/tokens.js';
import { FakeZhipu, TEST_KEY } from '../../test/fake-zhipu/server.js';
import type { BenchOptions, Row } from './lib/row.js';
import { run } from './lib/run-zhi.js';

export async function measure(_o: BenchOptions): Promise<Row[]> {
  const fake = new FakeZhipu();
  await fake.start();
  fake.fallback = () => ({ kind: 'text', text: 'Hello!' });
  const home = mkdtempSync(join(tmpdir(), 'zhi-bench-request-'));
  try {
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: home,
      ZHI_HOME: home,
      ZHI_API_KEY: TEST_KEY,
      ZHI_BASE_URL: fake.baseUrl,
    };
    await run(['-c', 'hello'], env, home);
    const req = fake.requests.find((r) => r.path.endsWith('/chat/completions'));
    if (!req) throw new Error('no chat request was made');
    const bytes = Buffer.byteLength(req.raw, 'utf8');
    const body = req.body as { messages: { content: unknown }[]; tools?: unknown[] };
    const text = body.messages
      .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
      .join('\n');
    const tokens =
      estimateTextTokens(text) +
      4 * body.messages.length +
      estimateTextTokens(JSON.stringify(body.tools ?? []));
    const tools = (body.tools ?? []) as { function: { name: string } }[];
    const toolTokens = estimateTextTokens(JSON.stringify(body.tools ?? []));
    // What each part weighs, so the next addition can be weighed against the budget.
    const kb = (v: unknown) => (Buffer.byteLength(JSON.stringify(v), 'utf8') / 1024).toFixed(2);
    const parts = tools.map((t) => `${t.function.name} ${kb(t)}`).join(', ');
    return [
      {
        name: 'one-shot `hello` request size',
        value: bytes / 1024,
        unit: 'KB',
        budget: 6,
        note: `${bytes} bytes; system prompt ${kb(body.messages[0]?.content)} KB; tools (KB): ${parts || 'none'}`,
      },
      {
        name: 'built-in tool definitions in a chat request',
        value: toolTokens,
        unit: 'tokens',
        budget: 700,
        note: `${tools.length} tools offered: ${tools.map((t) => t.function.name).join(', ')}`,
      },
      {
        name: 'one-shot `hello` prompt tokens',
        value: tokens,
        unit: 'tokens',
        budget: 1500,
        note: "the repo's estimator over messages and tool schemas (errs high)",
      },
    ];
  } finally {
    await fake.stop();
    rmSync(home, { recursive: true, force: true });
  }
}
