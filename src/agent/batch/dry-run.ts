import { type Cost, costOf, DEFAULT_CHAT_MODEL, formatCost } from '../../llm/models.js';
import { maxBy, maxOf } from '../../support/arrays.js';
import { t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';
import { cutToWidth, padToWidth, textWidth } from '../../support/width.js';
import { traitsOf } from '../../tools/index.js';
import { displayPath } from '../../tools/paths.js';
import type { AgentResult, RunEvent } from '../events.js';
import type { SkillRunRequest, SkillRuntime } from '../skills/run.js';
import { estimateMessagesTokens, estimateToolsTokens } from '../tokens.js';
import { batchBlocker, captureFirst } from './batch-run.js';

type RunFn = (req: SkillRunRequest, rt: SkillRuntime) => AsyncGenerator<RunEvent, AgentResult>;

export interface DryRunInput {
  run: RunFn;
  req: SkillRunRequest;
  rt: SkillRuntime;
  argName: string;
  files: string[];
  /** Indexes of the files a real run would process (the others are done). */
  todo: number[];
}

/**
 * Model calls of one file's run, counted from the skill: one when the file it writes is its
 * answer (`output.answer: file`: the run ends when the file is saved); a skill that writes a
 * file and then answers takes two (the write, then the answer); a skill that only answers, one.
 */
export function callsPerFile(skill: SkillRunRequest['skill']): number {
  if (skill.answerIsFile) return 1;
  return skill.tools.some((name) => traitsOf(name).writesOutput) ? 2 : 1;
}

interface Row {
  name: string;
  tokens: number;
  /** A long document: the parts the run would split it into. */
  parts?: number;
}

interface FileEstimate {
  row: Row;
  model?: string;
  prompt: number;
  completion: number;
  /** Model calls the file's run would make. */
  calls: number;
}

/**
 * One file's estimate. Its first request is built as the run would build it (nothing is sent);
 * a document too long for one message is estimated as the run does it: every part on its own,
 * then the combining run (the run's own figures for its cost check).
 */
async function estimateFile(o: DryRunInput, file: string, calls: number): Promise<FileEstimate> {
  const { req, rt } = o;
  // Nothing may cost money: images and scans are not OCR'd up front.
  const { ocr: _ocr, ...offline } = rt;
  const first = await captureFirst(
    o.run,
    { ...req, values: { ...req.values, [o.argName]: file } },
    offline,
  ).catch(() => undefined);
  const name = visible(displayPath(rt.cwd, file));
  const model = first?.request?.model;
  if (first?.long) {
    const { input, output } = first.long.tokens;
    return {
      row: { name, tokens: input, parts: first.long.parts },
      model,
      prompt: input,
      completion: output,
      // Every part on its own, then the skill's own run over the parts' results.
      calls: first.long.parts + calls,
    };
  }
  if (!first?.request) return { row: { name, tokens: 0 }, prompt: 0, completion: 0, calls: 0 };
  const p = estimateMessagesTokens(first.request.messages) + estimateToolsTokens(first.request.tools ?? []);
  const c = Math.min(4000, Math.max(200, Math.round(p / 4)));
  return {
    row: { name, tokens: p },
    model,
    prompt: p * calls + c * (calls - 1),
    completion: c * calls,
    calls,
  };
}

/**
 * `--dry-run`: what a run would process and roughly what it would cost, without sending
 * anything. Each file's first request is built exactly as the run would build it (nothing is
 * sent), its size estimated; the answer is guessed at a quarter of the input (200 to 4,000
 * tokens). Prices: the skill's model, GLM-5 for comparison, and the Batch API's.
 */
export async function dryRunFolder(o: DryRunInput): Promise<AgentResult> {
  const { req, rt } = o;
  const rows: Row[] = [];
  let model = '';
  let prompt = 0;
  let completion = 0;
  let allCalls = 0;
  const calls = callsPerFile(req.skill);
  for (const i of o.todo) {
    if (rt.signal.aborted) break;
    const file = o.files[i]!;
    const e = await estimateFile(o, file, calls);
    model ||= e.model ?? '';
    prompt += e.prompt;
    completion += e.completion;
    allCalls += e.calls;
    rows.push(e.row);
  }
  model ||= req.model ?? req.skill.model ?? rt.skillModel;
  const tokens = { promptTokens: prompt, completionTokens: completion, cachedTokens: 0 };
  const price = (m: string, batch = false): string => {
    const cost: Cost = costOf(m, tokens, req.usage.platform);
    if (cost.covered) return t('batch.dry.covered');
    if (!batch) return formatCost(cost);
    // --batch: every call of every file goes through the Batch API in rounds, at its price.
    const amount = costOf(m, { ...tokens, batch: true }, req.usage.platform).amount;
    const shown = formatCost({ amount, currency: cost.currency });
    if (cost.amount <= 0) return shown;
    return `${shown}  ${t('runs.dry.saving', { percent: Math.round((1 - amount / cost.amount) * 100) })}`;
  };
  const prices: [string, string][] = [[t('batch.dry.on', { model }), price(model)]];
  if (model !== DEFAULT_CHAT_MODEL)
    prices.push([t('batch.dry.on', { model: DEFAULT_CHAT_MODEL }), price(DEFAULT_CHAT_MODEL)]);
  // A skill that must ask a person mid-run cannot be batched: said before anything is sent.
  const blocked = batchBlocker(req.skill);
  prices.push([t('batch.dry.batch'), blocked ? blocked.whatText() : price(model, true)]);
  const labelWidth = maxOf(prices.map(([label]) => textWidth(label)));
  const priceLines = prices.map(
    ([label, p]) => `  ${label}${' '.repeat(labelWidth - textWidth(label) + 2)}${p}`,
  );
  // Names are padded by the columns they take on screen (a Chinese name is twice as wide).
  const width = Math.min(
    60,
    maxBy(rows, (r) => textWidth(r.name), 4),
  );
  const lines = [
    t('batch.dry.head', {
      todo: o.todo.length,
      total: o.files.length,
      skill: req.skill.name,
      model,
      done: o.files.length - o.todo.length,
    }),
    ...rows.map((r) => {
      const tokens = t('batch.dry.tokens', { n: r.tokens.toLocaleString('en-US') });
      return `  ${padToWidth(cutToWidth(r.name, width), width)}  ${r.parts ? `${tokens} · ${t('batch.dry.long', { parts: r.parts })}` : tokens}`;
    }),
    '',
    t('batch.dry.total', {
      input: prompt.toLocaleString('en-US'),
      output: completion.toLocaleString('en-US'),
      calls: allCalls.toLocaleString('en-US'),
    }),
    ...priceLines,
    '',
    t('batch.dry.nothingSent'),
  ];
  return {
    text: lines.join('\n'),
    stopReason: 'answer',
    turns: 0,
    toolCalls: 0,
    filesRead: 0,
    filesWritten: [],
  };
}
