/**
 * The REPL renderer under long answers, in a real pseudo-terminal (120 × 40) against the fake
 * server: CPU time zhi spends on a streamed table of 10k tokens and on a 100k-token mixed
 * Markdown answer, and how long Ctrl+C takes to stop a table that is still streaming.
 * Run by scripts/bench.mjs (bundled with esbuild); `measure()` returns the rows.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type IPty, spawn } from 'node-pty';
import { estimateTextTokens } from '../../src/agent/tokens.js';
import { FakeZhipu, TEST_KEY } from '../../test/fake-zhipu/server.js';

type Row = { name: string; value: number; unit: string; budget?: number; note?: string };

const zhi = join(process.cwd(), 'dist/zhi.js');
const PROMPT = /zhi \[(approve|auto)\]>/g;
const ESC = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[()][A-Z0-9]|\x1b[=>]/g;

/** A ledger table of about `tokens` tokens (the repo's estimator), Chinese and numbers mixed. */
export function tableAnswer(tokens: number): string {
  let s = '| 日期 | 客户 | 金额 | 状态 | 备注 |\n|---|---|--:|---|---|\n';
  let count = estimateTextTokens(s);
  for (let i = 0; count < tokens; i++) {
    const day = String((i % 28) + 1).padStart(2, '0');
    const row = `| 2026-01-${day} | 客户${i}有限公司 | ${((i * 7919) % 100000).toLocaleString('en')}.00 | ${i % 3 ? '已付' : '待付款'} | invoice ${i}, ${'checked '.repeat(i % 4)}|\n`;
    s += row;
    count += estimateTextTokens(row);
  }
  return `${s}\n合计见上表。\n`;
}

/** Headings, paragraphs, lists, code and small tables: about `tokens` tokens. */
function mixedAnswer(tokens: number): string {
  const part = (i: number) =>
    `## 第${i}节 Section ${i}\n\n这是一段说明文字，介绍第${i}部分的内容。It mixes **bold**, *italic*, \`code\` and a [link](https://example.com/${i}).\n\n- 要点一：按时提交\n- 要点二：核对金额 ${i * 13}.50 元\n  - nested detail\n\n\`\`\`python\ndef f${i}(x):\n    return x * ${i}  # comment\n\`\`\`\n\n| 项目 | 数量 |\n|---|--:|\n| 苹果 | ${i} |\n| 梨 | ${i + 1} |\n\n`;
  let s = '';
  for (let i = 0, count = 0; count < tokens; i++) {
    s += part(i);
    count += estimateTextTokens(part(i));
  }
  return s;
}

function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks
}

class Term {
  readonly pty: IPty;
  /** Output with escape codes removed; only its end is searched, so waiting costs little. */
  private plain = '';
  private promptCount = 0;
  constructor(
    baseUrl: string,
    readonly home: string,
  ) {
    this.pty = spawn(process.execPath, [zhi], {
      name: 'xterm-256color',
      cols: 120,
      rows: 40,
      cwd: home,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        ZHI_HOME: home,
        ZHI_API_KEY: TEST_KEY,
        ZHI_BASE_URL: baseUrl,
        ZHI_LANGUAGE: 'en',
        // The prompt count reads the last line; the status line would sit below it.
        ZHI_STATUS_LINE: 'off',
        TERM: 'xterm-256color',
        ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}),
      },
    });
    this.pty.onData((d) => {
      const tail = this.plain.slice(-40);
      this.plain = tail + d.replace(ESC, '');
      this.promptCount += this.plain.match(PROMPT)?.length ?? 0;
      this.promptCount -= tail.match(PROMPT)?.length ?? 0;
      this.seenText ||= this.want !== '' && this.plain.includes(this.want);
    });
  }
  private want = '';
  private seenText = false;
  prompts(): number {
    return this.promptCount;
  }
  /** Start watching for `text` (escape codes between its characters ignored). */
  watch(text: string): void {
    this.want = text;
    this.seenText = false;
  }
  seen(): boolean {
    return this.seenText;
  }
  async until(test: () => boolean, what: string, timeoutMs = 120_000): Promise<void> {
    const start = performance.now();
    while (!test()) {
      if (performance.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }
  close(): void {
    this.pty.kill();
    rmSync(this.home, { recursive: true, force: true });
  }
}

async function session(fake: FakeZhipu): Promise<Term> {
  const term = new Term(fake.baseUrl, mkdtempSync(join(tmpdir(), 'zhi-bench-stream-')));
  await term.until(() => term.prompts() >= 1, 'the prompt', 10_000);
  return term;
}

/** CPU seconds zhi spends from Enter to the next prompt while `text` streams in. */
async function streamCpu(fake: FakeZhipu, text: string): Promise<number> {
  fake.script({ kind: 'text', text, chunk: 24 });
  const term = await session(fake);
  const before = cpuSeconds(term.pty.pid);
  term.pty.write('show me\r');
  await term.until(() => term.prompts() >= 2, 'the answer to finish');
  const used = cpuSeconds(term.pty.pid) - before;
  term.close();
  return used;
}

/** Ctrl+C while a long table is still arriving: milliseconds until the REPL says it stopped. */
export async function interruptMs(fake: FakeZhipu, text: string): Promise<number> {
  fake.script({ kind: 'text', text, chunk: 24, delayMs: 1 });
  const term = await session(fake);
  term.watch('2026-01-');
  term.pty.write('show me\r');
  // Well into the table: thousands of rows arrived and it keeps coming.
  await term.until(() => term.seen(), 'the table to start');
  await new Promise((r) => setTimeout(r, (globalThis as { WAIT?: number }).WAIT ?? 1500));
  term.watch('Interrupted');
  const start = performance.now();
  term.pty.write('\x03');
  await term.until(() => term.seen() && term.prompts() >= 2, 'the interruption', 30_000);
  const ms = performance.now() - start;
  term.close();
  return ms;
}

export async function measure(): Promise<Row[]> {
  const fake = new FakeZhipu();
  await fake.start();
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const table = tableAnswer(10_000);
  const tableCpu = median([
    await streamCpu(fake, table),
    await streamCpu(fake, table),
    await streamCpu(fake, table),
  ]);
  const stops: number[] = [];
  for (let i = 0; i < 3; i++) stops.push(await interruptMs(fake, tableAnswer(20_000)));
  const mixedCpu = await streamCpu(fake, mixedAnswer(100_000));
  await fake.stop();
  return [
    {
      name: 'streamed 10k-token table in the REPL',
      value: tableCpu,
      unit: 'CPU-s',
      budget: 3,
      note: 'pty 120×40, zhi process user+system CPU from Enter to prompt, median of 3',
    },
    {
      name: 'Ctrl+C during a streaming table',
      value: median(stops),
      unit: 'ms',
      budget: 100,
      note: `key → "Interrupted" and prompt, 20k-token table still arriving; runs: ${stops.map((s) => s.toFixed(0)).join(', ')} ms`,
    },
    {
      name: '100k-token mixed answer in the REPL',
      value: mixedCpu,
      unit: 'CPU-s',
      budget: 6,
      note: 'headings, lists, code, small tables; pty 120×40',
    },
  ];
}
