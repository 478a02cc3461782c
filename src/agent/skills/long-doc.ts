/**
 * Documents longer than a skill run can take in one message: split at pages, headings or
 * paragraphs (never inside a table), run the skill's model on every part (map, several at once),
 * then either combine the parts' results (`map_reduce: true`: summaries, analyses, tables) — in
 * rounds of groups no larger than a part until they fit one message, then in the skill's own
 * run — or join them in order into one result (`map_reduce: concat`: translation), which the
 * skill's own file_write call saves whole. Every result is kept on disk until the run answers
 * (part-store.ts): the same command after a failure or Ctrl+C pays only for what is missing.
 */
import { extname } from 'node:path';
import { estimateTextTokens } from '../../agent/tokens.js';
import { type Cost, costOf, formatCost } from '../../llm/models.js';
import { OCR_EXT, PER_FILE_BYTES } from '../../skills/documents.js';
import { splitDocument } from '../../skills/split.js';
import { ZhiError } from '../../support/errors.js';
import { t } from '../../support/i18n/index.js';
import { displayPath } from '../../tools/paths.js';
import { ToolRegistry } from '../../tools/registry.js';
import type { AnyTool } from '../../tools/types.js';
import type { RunEvent } from '../events.js';
import { type PieceRun, runPieces } from './long-doc-parts.js';
import { PartStore } from './part-store.js';
import { combineInRounds, partBytes, type RoundItem, roundKey } from './rounds.js';
import type { SkillPlan, SkillRunRequest, SkillRuntime } from './run.js';

/** Where zhi puts a `concat` result: the skill's file_write call carries this, zhi fills it in. */
export const RESULT_PLACEHOLDER = '{{ZHI_WHOLE_RESULT}}';
/** The longest document read for map/reduce. */
const MAX_DOCUMENT_BYTES = 50 * 1024 * 1024;

export interface LongDocument {
  /** Where the part results are kept: removed once the skill's run has answered. */
  store: PartStore;
  argName: string;
  name: string;
  /** The text that stands for the document in the skill's own run. */
  text: string;
  note: string;
  /** `concat`: the whole result, put into the file_write call in place of the placeholder. */
  whole?: string;
}

/** The one file input of a map/reduce skill that is too long for one message, read whole. */
async function longInput(
  req: SkillRunRequest,
  rt: SkillRuntime,
): Promise<{ argName: string; abs: string; text: string } | undefined> {
  if (!req.skill.mapReduce) return undefined;
  const files = req.skill.args.filter((a) => a.type === 'file' && typeof req.values[a.name] === 'string');
  if (files.length !== 1) return undefined;
  const arg = files[0]!;
  const value = String(req.values[arg.name]);
  if (OCR_EXT.includes(extname(value).slice(1).toLowerCase())) return undefined;
  const { resolve } = await import('node:path');
  const abs = resolve(rt.cwd, value);
  try {
    const doc = await rt.readDocument(abs, { maxBytes: MAX_DOCUMENT_BYTES, signal: rt.signal });
    if (Buffer.byteLength(doc.text, 'utf8') <= PER_FILE_BYTES) return undefined;
    return { argName: arg.name, abs, text: doc.text };
  } catch {
    return undefined; // the normal path reports what is wrong with the file
  }
}

/** The map step's instruction, added to the skill's own prompt. */
function mapPrompt(concat: boolean, i: number, n: number): string {
  return concat
    ? `This run handles part ${i} of ${n} of a long document. Do the task for this part only and completely, keeping its structure. Do not call tools and do not write files: answer with the result for this part and nothing else (no introduction, no note about parts).`
    : `This run handles part ${i} of ${n} of a long document. Do the task for this part only. Do not call tools and do not write files: answer with the result for this part; keep every figure, name, date and open question it has, because the results of all parts are combined afterwards.`;
}

/**
 * Estimated tokens of the map calls and the combining run: every part sent once with the
 * prompt, each part's result, then the combining run reading those results. `--dry-run` uses
 * the same figures.
 */
export function longDocumentTokens(text: string, parts: number, concat: boolean) {
  const tokens = estimateTextTokens(text);
  const prompt = tokens + parts * 800;
  const completion = concat ? tokens : Math.min(tokens, parts * 1200);
  return { promptTokens: prompt + completion, completionTokens: completion + 1500, cachedTokens: 0 };
}

/**
 * Map a long input: returns what stands for it in the skill's run, or undefined when the input
 * is not long (or the skill does not declare how to handle long documents).
 */
export async function* mapLongDocument(
  req: SkillRunRequest,
  rt: SkillRuntime,
  plan: SkillPlan,
): AsyncGenerator<RunEvent, LongDocument | undefined> {
  const input = await longInput(req, rt);
  if (!input) return undefined;
  const concat = req.skill.mapReduce === 'concat';
  const name = displayPath(rt.cwd, input.abs);
  const size = partBytes(plan.model);
  const parts = splitDocument(input.text, size, req.skill.chunking ?? 'headings');
  const tokens = longDocumentTokens(input.text, parts.length, concat);
  const cost = costOf(plan.model, tokens, req.usage.platform);
  // The estimate is said (and asked about) only when it is more than max_cost_per_run leaves.
  const over = overBudget(rt, cost.amount);
  yield {
    type: 'long_document',
    skill: req.skill.name,
    file: name,
    parts: parts.length,
    ...(concat ? { joined: true as const } : {}),
    estimate: cost.amount,
    tokens: { input: tokens.promptTokens, output: tokens.completionTokens },
    currency: cost.currency,
    ...(over ? { limit: over.limit, left: over.left } : {}),
  };
  if (over) await settleCost(rt, { file: name, cost, limit: over.limit });
  const store = PartStore.for(plan.outputDir, {
    text: input.text,
    other: [
      req.skill.name,
      req.skill.hash,
      plan.model,
      size,
      req.skill.chunking,
      without(req.values, input.argName),
    ],
  });
  const run: PieceRun = { req, rt, plan, argName: input.argName, file: name, store };
  const n = parts.length;
  const mapped = yield* runPieces(
    run,
    parts.map((text, i) => ({
      key: `p${String(i + 1).padStart(4, '0')}`,
      label: `${name} (part ${i + 1} of ${n})`,
      text,
      instruction: mapPrompt(concat, i + 1, n),
    })),
    { round: 0 },
  );
  if (!mapped) return undefined;
  if (concat) {
    const whole = mapped.join('\n\n');
    return {
      store,
      argName: input.argName,
      name,
      note: `a long document, already processed in ${parts.length} parts; the whole result is ready`,
      text: `[zhi processed this long document in ${parts.length} parts; the complete result (${Buffer.byteLength(whole, 'utf8')} bytes) is ready and must not be redone. Follow your steps, but wherever you would write the result itself, write exactly ${RESULT_PLACEHOLDER} instead: zhi puts the complete result there. Your final answer is one short line saying where it was saved.]`,
      whole,
    };
  }
  const results = yield* combineParts(run, mapped, size);
  if (!results) return undefined;
  return {
    store,
    argName: input.argName,
    name: `${name} (results of its ${n} parts, in order)`,
    note: `a long document: the results of its ${n} parts, in order`,
    text: results.text,
  };
}

/**
 * The parts' results, combined a group at a time until all of them fit in one message of at most
 * `max` bytes (rounds.ts): every combining request is as bounded as a part. Each round's results
 * are kept like the parts'.
 */
async function* combineParts(
  run: PieceRun,
  mapped: string[],
  max: number,
): AsyncGenerator<RunEvent, { text: string } | undefined> {
  const total = mapped.length;
  // Results with the part numbers they cover, so later rounds still say where things came from.
  const heading = (x: RoundItem) =>
    x.from === x.to ? `### Part ${x.from} of ${total}` : `### Parts ${x.from}–${x.to} of ${total}`;
  const render = (x: RoundItem) => `${heading(x)}\n\n${x.text}`;
  const items = yield* combineInRounds(
    mapped.map((r, i) => ({ from: i + 1, to: i + 1, text: r })),
    {
      fit: max,
      group: max,
      render,
      piece: (g, round, i) => ({
        key: roundKey(round, i),
        label: `${run.file} (results of parts ${g[0]!.from}–${g.at(-1)!.to} of ${total})`,
        text: g.map(render).join('\n\n'),
        instruction: combinePrompt(g[0]!.from, g.at(-1)!.to, total),
      }),
    },
    (pieces, round) => runPieces(run, pieces, { round }),
  );
  // A group of one cannot shrink by combining: what is left goes to the skill's run as it is.
  return items && { text: items.map(render).join('\n\n') };
}

function combinePrompt(from: number, to: number, total: number): string {
  return `This run combines the results of parts ${from} to ${to} of ${total} of a long document, given in order in the user's message. Do the task for these parts as one: merge what repeats, keep every figure, name, date and open question, and keep the part numbers where something comes from. Do not call tools and do not write files: answer with the combined result and nothing else, because it is combined with the other parts' afterwards.`;
}

function without(values: SkillRunRequest['values'], name: string): SkillRunRequest['values'] {
  const { [name]: _gone, ...rest } = values;
  return rest;
}

/** The run's limit when the estimate is more than is left of it (undefined: it fits, or no limit). */
function overBudget(rt: SkillRuntime, amount: number): { limit: number; left: number } | undefined {
  const gate = rt.costGate?.limits();
  return gate && amount > gate.left ? gate : undefined;
}

/**
 * An estimate above `max_cost_per_run`: `--yes`, or a person's yes at the terminal, lets this
 * run spend up to twice the estimate (it is a guess); otherwise nothing is sent and the run
 * stops with an error that names the setting.
 */
async function settleCost(rt: SkillRuntime, o: { file: string; cost: Cost; limit: number }): Promise<void> {
  const allow = () => rt.costGate?.allow(o.cost.amount * 2);
  const cost = formatCost(o.cost);
  const limit = formatCost({ amount: o.limit, currency: o.cost.currency });
  if (rt.assumeYes) return allow();
  if (rt.prompter.interactive) {
    const yes = await rt.prompter.ask({ message: t('batch.longAsk', { cost }) }, rt.signal);
    if (yes) return allow();
  }
  throw new ZhiError({
    kind: 'budget',
    what: { key: 'batch.err.longCost', params: { file: o.file, cost, limit } },
    why: { key: rt.prompter.interactive ? 'batch.err.longDeclined' : 'batch.err.longNoTerminal' },
    tries: [
      { key: 'batch.try.yes' },
      { key: 'sessions.budget.try1', params: { more: Math.max(o.cost.amount * 2, o.limit).toFixed(2) } },
    ],
  });
}

/** The run's tools with file_write filling in the whole result where the model wrote the placeholder. */
export function withWholeResult(registry: ToolRegistry, whole: string): ToolRegistry {
  const fill = (v: unknown): unknown => {
    if (typeof v === 'string')
      return v.includes(RESULT_PLACEHOLDER) ? v.split(RESULT_PLACEHOLDER).join(whole) : v;
    if (Array.isArray(v)) return v.map(fill);
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x)]));
    return v;
  };
  return new ToolRegistry(
    registry
      .list()
      .map(
        (t): AnyTool =>
          t.name === 'file_write' ? { ...t, execute: (args, ctx) => t.execute(fill(args), ctx) } : t,
      ),
  );
}
