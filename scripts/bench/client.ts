/**
 * Client overhead of one streamed model turn: zhi's ZhipuClient against a bare `fetch` POST of the
 * same request to the same fake server, measured in the same process, interleaved. Both sides pay
 * the fake server and the socket; the ratio is what the client adds (SSE parsing, events, retries).
 */
import { ZhipuClient } from '../../src/llm/client.js';
import { FakeZhipu, TEST_KEY } from '../../test/fake-zhipu/server.js';
import { bareFetch } from './lib/floors.js';
import type { BenchOptions, Row } from './lib/row.js';

export async function measure(o: BenchOptions): Promise<Row[]> {
  const fake = new FakeZhipu();
  await fake.start();
  // A short answer in 40 chunks, so parsing the stream is part of the work.
  fake.fallback = () => ({ kind: 'text', text: 'word '.repeat(80), chunk: 10 });
  const client = new ZhipuClient({ baseUrl: fake.baseUrl, apiKey: TEST_KEY });
  const req = { model: 'glm-5', messages: [{ role: 'user' as const, content: 'hi' }], thinking: false };
  const turn = async () => {
    for await (const _ of client.stream(req)) {
      // drain
    }
  };
  const bare = () => bareFetch(fake.baseUrl, { ...req, stream: true });
  try {
    for (let i = 0; i < 20; i++) {
      await turn();
      await bare();
    }
    const rounds = o.quick ? 2 : 10;
    const per = o.quick ? 10 : 40;
    let clientCpu = 0;
    let bareCpu = 0;
    for (let r = 0; r < rounds; r++) {
      let c = process.cpuUsage();
      for (let i = 0; i < per; i++) await bare();
      c = process.cpuUsage(c);
      bareCpu += c.user + c.system;
      c = process.cpuUsage();
      for (let i = 0; i < per; i++) await turn();
      c = process.cpuUsage(c);
      clientCpu += c.user + c.system;
    }
    const n = rounds * per;
    return [
      {
        name: 'client CPU per streamed turn',
        value: clientCpu / n / 1000,
        unit: 'ms',
        floor: { name: 'bare fetch POST', value: bareCpu / n / 1000 },
        maxRatio: 2,
        note: `process CPU (client + fake server) per turn, ${n} turns interleaved with ${n} bare POSTs`,
      },
    ];
  } finally {
    await fake.stop();
  }
}
