/**
 * In-process measurements, bundled on the fly by scripts/bench.mjs (so it can import src/ and
 * the fake server directly). Prints one JSON object per measurement on stdout.
 */
import { ZhipuClient } from '../../src/llm/client.js';
import { FakeZhipu, TEST_KEY } from '../../test/fake-zhipu/server.js';

type Row = { name: string; value: number; unit: string; budget?: number; note?: string };
const rows: Row[] = [];

async function clientOverhead(): Promise<void> {
  const fake = new FakeZhipu();
  await fake.start();
  fake.fallback = () => ({ kind: 'text', text: 'ok' });
  const client = new ZhipuClient({ baseUrl: fake.baseUrl, apiKey: TEST_KEY });
  const req = { model: 'glm-5', messages: [{ role: 'user' as const, content: 'hi' }], thinking: false };
  const turn = async () => {
    for await (const _ of client.stream(req)) {
      // drain
    }
  };
  for (let i = 0; i < 20; i++) await turn(); // warm up
  // The same request with a bare fetch: what the server and the socket cost on their own.
  const bare = async () => {
    const res = await fetch(`${fake.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TEST_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...req, stream: true }),
    });
    await res.text();
  };
  for (let i = 0; i < 20; i++) await bare();
  const n = 200;
  let t = performance.now();
  for (let i = 0; i < n; i++) await bare();
  const bareMs = (performance.now() - t) / n;
  t = performance.now();
  for (let i = 0; i < n; i++) await turn();
  const clientMs = (performance.now() - t) / n;
  rows.push({
    name: 'client overhead per model turn',
    value: clientMs,
    unit: 'ms',
    budget: 5,
    note: `whole streamed turn incl. the fake server (an upper bound); a bare fetch of it: ${bareMs.toFixed(2)} ms`,
  });
  await fake.stop();
}

const extra = process.argv.slice(2);
if (process.env.ZHI_BENCH_CLIENT) await clientOverhead();
for (const modPath of extra) {
  const mod = (await import(modPath)) as { measure(): Promise<Row[]> };
  rows.push(...(await mod.measure()));
}
process.stdout.write(`${JSON.stringify(rows)}\n`);
