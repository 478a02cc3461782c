import { type Cost, costOf, DEFAULT_CHAT_MODEL, formatCost } from '../../llm/models.js';
import type { ChatRequest } from '../../llm/types.js';
import { UsageTracker } from '../../llm/usage.js';
import { maxBy, maxOf } from '../../support/arrays.js';
import { t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';
import { cutToWidth, padToWidth, textWidth } from '../../support/width.js';
import { traitsOf } from '../../tools/index.js';
import { displayPath } from '../../tools/paths.js';
import type { AgentResult, EstimateFigures } from '../events.js';
import type { FolderEvent } from '../folder/events.js';
import { estimateMessagesTokens, estimateToolsTokens } from '../tokens.js';
import { batchBlocker } from './batchable.js';
import { CapturingClient } from './capturing-client.js';
import { PART_BYTES } from './combine-rounds.js';
import type { RunFn, SkillRunRequest, SkillRuntime } from './types.js';

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

export interface Row {
  name: string;
  tokens: number;
  /** A long document: the parts the run would split it into. */
  parts?: number;
}

/** What a dry run counted: a row per file, the tokens per model, the calls. */
export interface DryTotals {
  rows: Row[];
  /** Tokens by the model that would be paid for them (in the order first met). */
  tokens: Map<string, { prompt: number; completion: number }>;
  calls: number;
  /** Combining in rounds may add calls the count cannot know: it is a least. */
  atLeast: boolean;
}

/** A result's largest likely size, in bytes: an answer's estimate tops out at 4,000 tokens. */
export const MAX_RESULT_BYTES = 4000 * 4;

interface FileEstimate {
  row: Row;
  model?: string;
  prompt: number;
  completion: number;
  /** Model calls the file's run would make. */
  calls: number;
  atLeast?: boolean;
}

type LongDocumentEvent = Extract<FolderEvent, { type: 'long_document' }>;

/**
 * The first request a skill run would send for one file, and — for a document too long for one
 * message — how the run would split it (its parts and their estimated tokens). Nothing is sent.
 */
export async function captureFirst(
  run: RunFn,
  req: SkillRunRequest,
  rt: SkillRuntime,
): Promise<{ request?: ChatRequest; long?: LongDocumentEvent }> {
  const capture = new CapturingClient();
  // The file's own run, as a real one would start (not another dry run or batch of it).
  // Nothing is spent here: no question about a long document's cost either.
  const own = {
    ...rt,
    llm: capture,
    costGate: undefined,
    folder: { ...rt.folder, dryRun: false, batch: false },
  };
  let long: LongDocumentEvent | undefined;
  const gen = run({ ...req, usage: new UsageTracker(req.usage.platform), trusted: true }, own);
  try {
    for (let step = await gen.next(); !step.done; step = await gen.next())
      if (step.value.type === 'long_document') long ??= step.value;
  } catch (err) {
    // The parts' calls end as interrupted: what was learnt before is the answer.
    if (!capture.request && !long) throw err;
  }
  return { ...(capture.request ? { request: capture.request } : {}), ...(long ? { long } : {}) };
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
      // Every part on its own, then the skill's own run over the parts' results; results that
      // could be more than a part are combined in rounds first (not counted: more calls).
      calls: first.long.parts + calls,
      atLeast: !first.long.joined && first.long.parts * MAX_RESULT_BYTES > PART_BYTES,
    };
  }
  if (!first?.request) return { row: { name, tokens: 0 }, prompt: 0, completion: 0, calls: 0 };
  const p = estimateMessagesTokens(first.request.messages) + estimateToolsTokens(first.request.tools ?? []);
  return { row: { name, tokens: p }, model, ...callsOf(p, calls) };
}

/** Tokens of a run of `calls` calls whose first request is `prompt` tokens (answers guessed at a quarter). */
export function callsOf(
  prompt: number,
  calls: number,
): { prompt: number; completion: number; calls: number } {
  const c = answerGuess(prompt);
  return { prompt: prompt * calls + c * (calls - 1), completion: c * calls, calls };
}

/** An answer's tokens, guessed from its request's: a quarter, 200 to 4,000. */
export function answerGuess(prompt: number): number {
  return Math.min(4000, Math.max(200, Math.round(prompt / 4)));
}

/** Every file to do, estimated (`calls`: model calls of one file's run). */
export async function estimateFiles(o: DryRunInput, calls: number, into?: DryTotals): Promise<DryTotals> {
  const totals: DryTotals = into ?? { rows: [], tokens: new Map(), calls: 0, atLeast: false };
  const fallback = o.req.model ?? o.req.skill.model ?? o.rt.skillModel;
  for (const i of o.todo) {
    if (o.rt.signal.aborted) break;
    const e = await estimateFile(o, o.files[i]!, calls);
    if (e.prompt || e.completion) addTokens(totals, e.model ?? fallback, e.prompt, e.completion);
    totals.calls += e.calls;
    totals.atLeast ||= Boolean(e.atLeast);
    totals.rows.push(e.row);
  }
  return totals;
}

export function addTokens(totals: DryTotals, model: string, prompt: number, completion: number): void {
  const now = totals.tokens.get(model) ?? { prompt: 0, completion: 0 };
  totals.tokens.set(model, { prompt: now.prompt + prompt, completion: now.completion + completion });
}

/**
 * `--dry-run`: what a run would process and roughly what it would cost, without sending
 * anything. Each file's first request is built exactly as the run would build it (nothing is
 * sent), its size estimated; the answer is guessed at a quarter of the input (200 to 4,000
 * tokens). Prices: the skill's model, GLM-5 for comparison, and the Batch API's.
 */
export async function dryRunFolder(o: DryRunInput): Promise<AgentResult> {
  const { req, rt } = o;
  const totals = await estimateFiles(o, callsPerFile(req.skill));
  const model = [...totals.tokens.keys()][0] ?? req.model ?? req.skill.model ?? rt.skillModel;
  if (!totals.tokens.size) addTokens(totals, model, 0, 0);
  // One file (`zhi run skill file.pdf --dry-run`): "Would process report.pdf", not "1 of 1 files".
  const head = t(o.files.length === 1 && o.todo.length === 1 ? 'runs.dry.headOne' : 'runs.dry.head', {
    file: displayPath(rt.cwd, o.files[0] ?? ''),
    todo: o.todo.length,
    total: o.files.length,
    skill: req.skill.name,
    model,
    done: o.files.length - o.todo.length,
  });
  return dryRunReport(req, totals, { head, batch: true });
}

/** Each model's tokens at its own price (a composite's steps and its own run may differ). */
function costsOn(req: SkillRunRequest, totals: DryTotals, on: (m: string) => string, batch = false) {
  const list = [...totals.tokens.entries()].map(([m, x]) =>
    costOf(
      on(m),
      {
        promptTokens: x.prompt,
        completionTokens: x.completion,
        cachedTokens: 0,
        ...(batch ? { batch: true } : {}),
      },
      req.usage.platform,
    ),
  );
  const amount = list.reduce((n, c) => n + c.amount, 0);
  return { amount, covered: list.length > 0 && list.every((c) => c.covered), currency: list[0]?.currency };
}

/** The report's figures as numbers (on the skill's own model; the Batch API's when it can be used). */
function figures(
  req: SkillRunRequest,
  totals: DryTotals,
  tokens: number,
  batchable: boolean,
): EstimateFigures {
  const own = costsOn(req, totals, (m) => m);
  return {
    files: totals.rows.length,
    tokens,
    currency: own.currency ?? req.usage.platform.currency,
    price: own.covered ? 0 : own.amount,
    covered: own.covered,
    ...(batchable ? { batchPrice: own.covered ? 0 : costsOn(req, totals, (m) => m, true).amount } : {}),
  };
}

/** The dry run's report: a row per file, the totals, the prices (and the Batch API's when it applies). */
export function dryRunReport(
  req: SkillRunRequest,
  totals: DryTotals,
  o: { head: string; batch: boolean; notes?: string[] },
): AgentResult {
  const models = [...totals.tokens.keys()];
  const all = [...totals.tokens.values()].reduce(
    (n, x) => ({ prompt: n.prompt + x.prompt, completion: n.completion + x.completion }),
    { prompt: 0, completion: 0 },
  );
  const costs = (on: (m: string) => string, batch = false) => costsOn(req, totals, on, batch);
  const price = (on: (m: string) => string, batch = false): string => {
    const cost = costs(on);
    if (cost.covered) return t('runs.dry.covered');
    const currency = cost.currency ?? req.usage.platform.currency;
    if (!batch) return formatCost({ amount: cost.amount, currency } as Cost);
    // --batch: every call of every file goes through the Batch API in rounds, at its price.
    const amount = costs(on, true).amount;
    const shown = formatCost({ amount, currency } as Cost);
    if (cost.amount <= 0) return shown;
    return `${shown}  ${t('runs.dry.saving', { percent: Math.round((1 - amount / cost.amount) * 100) })}`;
  };
  const own = (m: string) => m;
  const prices: [string, string][] = [[t('runs.dry.on', { model: models.join(' + ') }), price(own)]];
  if (models.some((m) => m !== DEFAULT_CHAT_MODEL))
    prices.push([t('runs.dry.on', { model: DEFAULT_CHAT_MODEL }), price(() => DEFAULT_CHAT_MODEL)]);
  if (o.batch) {
    // A skill that must ask a person mid-run cannot be batched: said before anything is sent.
    const blocked = batchBlocker(req.skill);
    prices.push([t('batch.dry.batch'), blocked ? blocked.whatText() : price(own, true)]);
  }
  const labelWidth = maxOf(prices.map(([label]) => textWidth(label)));
  const priceLines = prices.map(
    ([label, p]) => `  ${label}${' '.repeat(labelWidth - textWidth(label) + 2)}${p}`,
  );
  // Names are padded by the columns they take on screen (a Chinese name is twice as wide).
  const width = Math.min(
    60,
    maxBy(totals.rows, (r) => textWidth(r.name), 4),
  );
  const lines = [
    o.head,
    ...totals.rows.map((r) => {
      const tokens = t('runs.dry.tokens', { n: r.tokens.toLocaleString('en-US') });
      return `  ${padToWidth(cutToWidth(r.name, width), width)}  ${r.parts ? `${tokens} · ${t('runs.dry.long', { parts: r.parts })}` : tokens}`;
    }),
    '',
    t(totals.atLeast ? 'runs.dry.totalAtLeast' : 'runs.dry.total', {
      input: all.prompt.toLocaleString('en-US'),
      output: all.completion.toLocaleString('en-US'),
      calls: totals.calls.toLocaleString('en-US'),
    }),
    ...priceLines,
    ...(o.notes ?? []),
    '',
    t('runs.dry.nothingSent'),
  ];
  return {
    text: lines.join('\n'),
    stopReason: 'answer',
    estimate: true,
    estimated: figures(req, totals, all.prompt + all.completion, o.batch && !batchBlocker(req.skill)),
    turns: 0,
    toolCalls: 0,
    filesRead: 0,
    filesWritten: [],
  };
}
