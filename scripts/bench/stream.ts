/**
 * The REPL renderer under long answers, in a real pseudo-terminal (120 × 40) against the fake
 * server: the bytes written to the terminal for a paced answer against the answer's own bytes;
 * CPU per KB of a 10k-token table and of a 100k-token mixed Markdown answer against the paced
 * answer's; and how long Ctrl+C takes to stop a table that is still streaming, at several sizes,
 * against a bare readline prompt's echo in the same kind of terminal.
 */
import { spawn } from 'node-pty';
import { estimateTextTokens } from '../../src/agent/tokens.js';
import { FakeZhipu } from '../../test/fake-zhipu/server.js';
import { cpuOfPid } from './lib/floors.js';
import { type BenchOptions, median, type Row } from './lib/row.js';
import { openTerm, sleep, untilQuiet } from './lib/term.js';

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

/**
 * A report as a person asks for one: a heading, a few paragraphs, a 172-row table of payments
 * and a closing list — about 26 KB, the answer issue 44 measured 880 KB of terminal output for
 * (a live table redrawn every frame).
 */
const NOTES = ['已开票', '分两期支付，第二期在月底', '对方要求更正抬头', '合同约定季度末结清'];

export function reportAnswer(rows = 172): string {
  const para = (i: number) =>
    `第${i}部分说明：下表按日期列出本季度每一笔回款，金额单位为元，状态以财务系统为准。The figures come from the ledger export of ${i} March; rows marked 待付款 still need a reminder, and the notes say what was agreed with each customer.\n\n`;
  let s = '## 2026 年第一季度回款明细\n\n';
  for (let i = 1; i <= 6; i++) s += para(i);
  s += '| # | 日期 | 客户 | 金额（元） | 状态 | 备注 |\n|--:|---|---|--:|---|---|\n';
  for (let i = 0; i < rows; i++) {
    const day = String((i % 28) + 1).padStart(2, '0');
    const month = String(Math.floor(i / 58) + 1).padStart(2, '0');
    s += `| ${i + 1} | 2026-${month}-${day} | 客户${i}有限公司 | ${((i * 7919) % 100000).toLocaleString('en')}.00 | ${i % 3 ? '已付' : '待付款'} | invoice ${1000 + i}，${NOTES[i % NOTES.length]} |\n`;
  }
  s += '\n小结：\n\n';
  for (let i = 1; i <= 6; i++)
    s += `${i}. 第${i}项：核对金额并在月底前发出提醒（follow up before the end of the month）。\n`;
  for (let i = 7; i <= 24; i++) s += `\n${para(i)}`;
  return s;
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

/** CPU seconds zhi spends from Enter to the next prompt while `text` streams in at a pace. */
async function streamCpu(fake: FakeZhipu, text: string, pace: Pace): Promise<{ cpu: number; bytes: number }> {
  fake.script({ kind: 'text', text, ...pace });
  const term = await openTerm(fake.baseUrl);
  await untilQuiet(term.pty.pid);
  const before = cpuOfPid(term.pty.pid);
  const bytes = term.bytes;
  await term.turn('show me', 300_000);
  const used = cpuOfPid(term.pty.pid) - before;
  const written = term.bytes - bytes;
  await term.close();
  return { cpu: used, bytes: written };
}

/**
 * Ctrl+C while a long table is still arriving, once `tokens` tokens of it have been shown:
 * milliseconds until the REPL says it stopped and the prompt is back.
 */
export async function interruptMs(fake: FakeZhipu, tokens: number): Promise<number> {
  const shown = tableAnswer(tokens);
  // The mark is the last row before Ctrl+C; rows keep coming after it (until the client goes away).
  const text = `${shown.replace(/\n合计见上表。\n$/, '')}| MARK | - | - | - | - |\n${tableAnswer(
    Math.max(30_000, tokens / 2),
  )
    .split('\n')
    .slice(2)
    .join('\n')}`;
  fake.script({ kind: 'text', text, chunk: 400, delayMs: 20 });
  const term = await openTerm(fake.baseUrl);
  await untilQuiet(term.pty.pid);
  term.watch('MARK');
  term.pty.write('show me\r');
  await term.until(() => term.seen(), 'the table to reach the mark', 300_000);
  term.watch('Interrupted');
  const start = performance.now();
  term.pty.write('\x03');
  await term.until(() => term.seen() && term.prompts() >= 2, 'the interruption', 30_000);
  const ms = performance.now() - start;
  await term.close();
  return ms;
}

/** Milliseconds from a key to its echo at a bare readline prompt in a pty: the terminal's own share. */
async function bareEcho(): Promise<number> {
  const script =
    "const rl=require('node:readline').createInterface({input:process.stdin,output:process.stdout});rl.setPrompt('> ');rl.prompt();rl.on('close',()=>process.exit(0))";
  const pty = spawn(process.execPath, ['-e', script], { name: 'xterm-256color', cols: 100, rows: 30 });
  let out = '';
  pty.onData((d) => {
    out += d;
  });
  const wait = async (test: () => boolean) => {
    for (let i = 0; i < 10_000 && !test(); i++) await sleep(1);
  };
  await wait(() => out.includes('> '));
  const times: number[] = [];
  for (const key of 'abcde') {
    const start = performance.now();
    pty.write(key);
    await wait(() => out.endsWith(key));
    times.push(performance.now() - start);
  }
  pty.kill();
  return median(times);
}

/** How the fake streams: characters per chunk and the pause between chunks. */
type Pace = { chunk: number; delayMs: number };
/** About 60 tokens a second in chunks of a few tokens: how GLM models stream (bench time permitting). */
const PACED: Pace = { chunk: 24, delayMs: 12 };

export async function measure(o: BenchOptions): Promise<Row[]> {
  const fake = new FakeZhipu();
  await fake.start();
  try {
    const answer = mixedAnswer(o.quick ? 2_000 : 8_000);
    const answerBytes = Buffer.byteLength(answer, 'utf8');
    const paced = await streamCpu(fake, answer, PACED);
    const report = reportAnswer();
    const reportBytes = Buffer.byteLength(report, 'utf8');
    const pacedReport = await streamCpu(fake, report, PACED);
    const table = await streamCpu(fake, tableAnswer(o.quick ? 1_000 : 10_000), { chunk: 24, delayMs: 0 });
    const mixed = o.quick
      ? undefined
      : await streamCpu(fake, mixedAnswer(100_000), { chunk: 24, delayMs: 0 });
    const echo = await bareEcho();
    const sizes = o.quick ? [1_000, 10_000] : [1_000, 10_000, 100_000];
    const stops: number[] = [];
    for (const n of sizes) stops.push(await interruptMs(fake, n));
    const rows: Row[] = [
      {
        name: `terminal bytes for a paced ${(answerBytes / 1024).toFixed(0)} KB answer`,
        value: paced.bytes / 1024,
        unit: 'KB',
        floor: { name: "the answer's bytes", value: answerBytes / 1024 },
        maxRatio: 3,
        note: `pty 120×40, ${PACED.chunk} chars every ${PACED.delayMs} ms; everything zhi wrote from Enter to the prompt`,
      },
      {
        name: `terminal bytes for a paced ${(reportBytes / 1024).toFixed(0)} KB answer with a 172-row table`,
        value: pacedReport.bytes / 1024,
        unit: 'KB',
        floor: { name: "the answer's bytes", value: reportBytes / 1024 },
        maxRatio: 3,
        note: `pty 120×40, as above; a table taller than the screen: rows printed once in settled columns, not redrawn each frame (28× before, 34× in issue 44)`,
      },
      {
        name: 'streamed 10k-token table, CPU per KB',
        value: (table.cpu * 1000) / (Buffer.byteLength(tableAnswer(o.quick ? 1_000 : 10_000)) / 1024),
        unit: 'ms',
        floor: { name: 'paced answer, CPU per KB', value: (paced.cpu * 1000) / (answerBytes / 1024) },
        maxRatio: 3,
        note: `unpaced; zhi's CPU ${table.cpu.toFixed(2)} s; a table must not cost more per byte than prose`,
      },
    ];
    if (mixed) {
      rows.push({
        name: '100k-token mixed answer, CPU per KB',
        value: (mixed.cpu * 1000) / (Buffer.byteLength(mixedAnswer(100_000)) / 1024),
        unit: 'ms',
        floor: { name: 'paced answer, CPU per KB', value: (paced.cpu * 1000) / (answerBytes / 1024) },
        maxRatio: 3,
        note: `unpaced; zhi's CPU ${mixed.cpu.toFixed(2)} s: cost grows with the answer, not its square`,
      });
    }
    for (const [i, n] of sizes.entries())
      rows.push({
        name: `Ctrl+C during a streaming table, ${n / 1000}k tokens shown`,
        value: stops[i]!,
        unit: 'ms',
        floor: { name: 'bare readline echo', value: echo },
        maxRatio: 20,
        note: 'key → "Interrupted" and the prompt, the table still arriving (budget 100 ms on an idle machine)',
      });
    return rows;
  } finally {
    await fake.stop();
  }
}
