/**
 * What `zhi serve` costs against the terminal for the same conversation turn: the server's CPU
 * (schedstat, ns) while a paced answer with a table streams to an API client over Server-Sent
 * Events, against the REPL's CPU in a pseudo-terminal for the same answer at the same pace. Both
 * are a second turn (the first one loads what a turn needs), so the row compares the work per
 * turn: the server turns each event into JSON for its clients, the terminal draws it. The page's
 * own drawing happens in the browser and is measured by the web row.
 */
import { request } from 'node:http';
import { FakeZhipu } from '../../test/fake-zhipu/server.js';
import { preciseCpuOfPid } from './lib/floors.js';
import { type BenchOptions, median, type Row } from './lib/row.js';
import { startServe } from './lib/serve.js';
import { openTerm, untilQuiet } from './lib/term.js';
import { reportAnswer } from './stream.js';

/** How GLM models stream (the stream row's pace): a few tokens per chunk, about 60 tokens a second. */
const PACE = { chunk: 24, delayMs: 12 };

export async function measure(o: BenchOptions): Promise<Row[]> {
  const fake = new FakeZhipu();
  await fake.start();
  const answer = reportAnswer(o.quick ? 20 : 60);
  fake.fallback = () => ({ kind: 'text', text: answer, ...PACE });
  const runs = o.quick ? 1 : 3;
  const server: number[] = [];
  const terminal: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      server.push(await serverTurn(fake));
      terminal.push(await terminalTurn(fake));
    }
  } finally {
    await fake.stop();
  }
  return [
    {
      name: '`zhi serve` CPU per turn, a paced answer with a table',
      value: median(server) * 1000,
      unit: 'ms',
      floor: { name: 'the same turn in the terminal REPL', value: median(terminal) * 1000 },
      maxRatio: 1.1,
      note: `${answer.length} characters at ${PACE.chunk} characters per ${PACE.delayMs} ms; the second turn of a conversation, one SSE client; median of ${runs}`,
    },
  ];
}

/** `zhi serve`'s CPU for the second turn of a conversation, read by an API client. */
async function serverTurn(fake: FakeZhipu): Promise<number> {
  const s = await startServe(fake);
  try {
    const api = client(s.url);
    const { id } = JSON.parse(await api('POST', '/api/conversations')) as { id: string };
    const events = stream(s.url, `/api/conversations/${id}/events`);
    try {
      await api('POST', `/api/conversations/${id}/messages`, { text: 'first' });
      await events.runsEnded(1);
      await untilQuiet(s.child.pid!);
      const before = preciseCpuOfPid(s.child.pid!);
      await api('POST', `/api/conversations/${id}/messages`, { text: 'second' });
      await events.runsEnded(2);
      return preciseCpuOfPid(s.child.pid!) - before;
    } finally {
      events.close();
    }
  } finally {
    await s.stop();
  }
}

/** The REPL's CPU for the second turn, the same answer drawn in a 100 × 30 terminal. */
async function terminalTurn(fake: FakeZhipu): Promise<number> {
  const term = await openTerm(fake.baseUrl, { cols: 100, rows: 30 });
  try {
    await term.turn('first', 300_000);
    await untilQuiet(term.pty.pid);
    const before = preciseCpuOfPid(term.pty.pid);
    await term.turn('second', 300_000);
    return preciseCpuOfPid(term.pty.pid) - before;
  } finally {
    await term.close();
  }
}

type Api = (method: string, path: string, body?: unknown) => Promise<string>;

function options(url: string, method: string, path: string) {
  const u = new URL(url);
  const secret = u.searchParams.get('token') ?? '';
  const headers = { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' };
  return { host: u.hostname, port: u.port, method, path, headers };
}

/** A Bearer client of the server at `url` (its first line). */
function client(url: string): Api {
  return (method, path, body) =>
    new Promise((resolve, reject) => {
      const req = request(options(url, method, path), (res) => {
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          data += d;
        });
        res.on('end', () => resolve(data));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
}

/** A conversation's event stream, read as a page reads it: it counts the runs that ended. */
function stream(url: string, path: string) {
  let ended = 0;
  let tail = '';
  let wake = () => {};
  const req = request(options(url, 'GET', path), (res) => {
    res.setEncoding('utf8');
    res.on('data', (d: string) => {
      const text = tail + d;
      ended += text.split('event: run_end\n').length - 1;
      tail = text.slice(-14); // shorter than the marker: a split one is found, a found one not again
      wake();
    });
  });
  req.on('error', () => {});
  req.end();
  return {
    async runsEnded(n: number): Promise<void> {
      while (ended < n) await new Promise<void>((r) => (wake = r));
    },
    close: () => req.destroy(),
  };
}
