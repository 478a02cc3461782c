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
import { type Cost, costOf, formatCost } from '../../llm/models.js';
import { OCR_EXT, PER_FILE_BYTES } from '../../skills/documents.js';
import { withoutInput } from '../../skills/inputs.js';
import { ZhiError } from '../../support/errors.js';
import { keepHeapTight } from '../../support/heap.js';
import { t } from '../../support/i18n/index.js';
import { formatBytes } from '../../support/text.js';
import { FILE_WRITE_TOOL } from '../../tools/files/entries.js';
import { StreamedText } from '../../tools/files/streamed-text.js';
import { formatOf } from '../../tools/files/writers/index.js';
import { displayPath } from '../../tools/paths.js';
import { ToolRegistry } from '../../tools/registry.js';
import type { AnyTool } from '../../tools/types.js';
import type { RunEvent } from '../events.js';
import { combineInRounds, joinedText, measured, partBytes, type RoundItem } from './combine-rounds.js';
import { type PieceRun, type PiecesRuntime, runPieces } from './long-doc-parts.js';
import { type LongSource, openLongSource } from './long-source.js';
import { PartStore } from './part-store.js';
import type { Person, Place, Readers, SkillPlan, SkillRunRequest } from './types.js';

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
  whole?: WholeResult;
}

/** What mapping a long document needs of the run: its parts' calls, its reader, the cost question. */
export type LongDocumentRuntime = PiecesRuntime & Pick<Readers, 'readDocument'> & Person;

/** The one file input of a map/reduce skill, when it is too long for one message: its parts. */
async function longInput(
  req: SkillRunRequest,
  rt: Pick<Readers, 'readDocument'> & Pick<Place, 'cwd'> & Pick<Person, 'signal'>,
  o: { partBytes: number; name: (abs: string) => string },
): Promise<{ argName: string; abs: string; source: LongSource } | undefined> {
  if (!req.skill.mapReduce) return undefined;
  const files = req.skill.args.filter((a) => a.type === 'file' && typeof req.values[a.name] === 'string');
  if (files.length !== 1) return undefined;
  const arg = files[0]!;
  const value = String(req.values[arg.name]);
  if (OCR_EXT.includes(extname(value).slice(1).toLowerCase())) return undefined;
  const { resolve } = await import('node:path');
  const abs = resolve(rt.cwd, value);
  let source: LongSource | undefined;
  try {
    source = await openLongSource(abs, {
      read: rt.readDocument,
      short: PER_FILE_BYTES,
      max: MAX_DOCUMENT_BYTES,
      partBytes: o.partBytes,
      how: req.skill.chunking ?? 'headings',
      signal: rt.signal,
      name: o.name(abs),
    });
  } catch {
    return undefined; // the normal path reports what is wrong with the file
  }
  return source && { argName: arg.name, abs, source };
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
export function longDocumentTokens(tokens: number, parts: number, concat: boolean) {
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
  rt: LongDocumentRuntime,
  plan: SkillPlan,
): AsyncGenerator<RunEvent, LongDocument | undefined> {
  const size = partBytes(plan.model);
  const input = await longInput(req, rt, { partBytes: size, name: (abs) => displayPath(rt.cwd, abs) });
  if (!input) return undefined;
  const { source } = input;
  const concat = req.skill.mapReduce === 'concat';
  const name = displayPath(rt.cwd, input.abs);
  const tokens = longDocumentTokens(source.tokens, source.count, concat);
  const cost = costOf(plan.model, tokens, req.usage.platform);
  // The estimate is said (and asked about) only when it is more than max_cost_per_run leaves.
  const over = overBudget(rt, cost.amount);
  yield {
    type: 'long_document',
    skill: req.skill.name,
    file: name,
    parts: source.count,
    ...(concat ? { joined: true as const } : {}),
    estimate: cost.amount,
    tokens: { input: tokens.promptTokens, output: tokens.completionTokens },
    currency: cost.currency,
    ...(over ? { limit: over.limit, left: over.left } : {}),
  };
  if (over) await settleCost(rt, { file: name, cost, limit: over.limit });
  // Every part allocates its text, request and answer and keeps only the result (on disk).
  keepHeapTight();
  const store = PartStore.for(plan.outputDir, {
    parts: source.hash,
    other: [
      req.skill.name,
      req.skill.hash,
      plan.model,
      size,
      req.skill.chunking,
      withoutInput(req.values, input.argName),
    ],
  });
  const run: PieceRun = { req, rt, plan, argName: input.argName, file: name, store };
  const n = source.count;
  const keys = Array.from({ length: n }, (_, i) => `p${String(i + 1).padStart(4, '0')}`);
  const mapped = yield* runPieces(
    run,
    keys.map((key, i) => ({
      key,
      label: `${name} (part ${i + 1} of ${n})`,
      text: () => source.part(i),
      instruction: mapPrompt(concat, i + 1, n),
    })),
    { round: 0 },
  );
  if (!mapped) return undefined;
  if (concat) {
    const whole = await wholeResult(store, keys);
    return {
      store,
      argName: input.argName,
      name,
      note: `a long document, already processed in ${n} parts; the whole result is ready`,
      text: `[zhi processed this long document in ${n} parts; the complete result (${whole.bytes} bytes) is ready and must not be redone. Follow your steps, but wherever you would write the result itself, write exactly ${RESULT_PLACEHOLDER} instead: zhi puts the complete result there. Your final answer is one short line saying where it was saved.]`,
      whole,
    };
  }
  const results = yield* combineParts(run, keys, size);
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
 * `max` bytes (combine-rounds.ts): every combining request is as bounded as a part. Each round's results
 * are kept like the parts', and read from the store when a request is built.
 */
async function* combineParts(
  run: PieceRun,
  keys: string[],
  max: number,
): AsyncGenerator<RunEvent, { text: string } | undefined> {
  const total = keys.length;
  // Results with the part numbers they cover, so later rounds still say where things came from.
  const heading = (x: { from: number; to: number }) =>
    x.from === x.to ? `### Part ${x.from} of ${total}` : `### Parts ${x.from}–${x.to} of ${total}`;
  const block = async (x: { from: number; to: number; key: string }) =>
    `${heading(x)}\n\n${((await run.store.get(x.key)) ?? '').trim()}`;
  const items: RoundItem[] = [];
  for (const [i, key] of keys.entries()) items.push(await measured({ from: i + 1, to: i + 1, key }, block));
  const combined = yield* combineInRounds(
    items,
    {
      fit: max,
      group: max,
      block,
      piece: (g, key) => ({
        key,
        label: `${run.file} (results of parts ${g[0]!.from}–${g.at(-1)!.to} of ${total})`,
        text: () => joinedText(g, block),
        instruction: combinePrompt(g[0]!.from, g.at(-1)!.to, total),
      }),
    },
    (pieces, round) => runPieces(run, pieces, { round }),
  );
  // A group of one cannot shrink by combining: what is left goes to the skill's run as it is.
  return combined && { text: await joinedText(combined, block) };
}

function combinePrompt(from: number, to: number, total: number): string {
  return `This run combines the results of parts ${from} to ${to} of ${total} of a long document, given in order in the user's message. Do the task for these parts as one: merge what repeats, keep every figure, name, date and open question, and keep the part numbers where something comes from. Do not call tools and do not write files: answer with the combined result and nothing else, because it is combined with the other parts' afterwards.`;
}

/** The run's limit when the estimate is more than is left of it (undefined: it fits, or no limit). */
function overBudget(
  rt: Pick<Person, 'costGate'>,
  amount: number,
): { limit: number; left: number } | undefined {
  const gate = rt.costGate?.limits();
  return gate && amount > gate.left ? gate : undefined;
}

/**
 * An estimate above `max_cost_per_run`: `--yes`, or a person's yes at the terminal, lets this
 * run spend up to twice the estimate (it is a guess); otherwise nothing is sent and the run
 * stops with an error that names the setting.
 */
async function settleCost(rt: Person, o: { file: string; cost: Cost; limit: number }): Promise<void> {
  const allow = () => rt.costGate?.allow(o.cost.amount * 2);
  const cost = formatCost(o.cost);
  const limit = formatCost({ amount: o.limit, currency: o.cost.currency });
  if (rt.assumeYes) return allow();
  if (rt.prompter.interactive) {
    const yes = await rt.prompter.ask({ message: t('runs.longAsk', { cost }) }, rt.signal);
    if (yes) return allow();
  }
  throw new ZhiError({
    kind: 'budget',
    what: { key: 'runs.err.longCost', params: { file: o.file, cost, limit } },
    why: { key: rt.prompter.interactive ? 'runs.err.longDeclined' : 'runs.err.longNoTerminal' },
    tries: [
      { key: 'runs.try.yes' },
      { key: 'sessions.budget.try1', params: { more: Math.max(o.cost.amount * 2, o.limit).toFixed(2) } },
    ],
  });
}

/** A `concat` result: the parts' results joined in order, read from the part store. */
export interface WholeResult {
  /** UTF-8 bytes of the joined result. */
  bytes: number;
  /** The whole text, only when it is small enough to be the answer shown (SHOWN_WHOLE_BYTES). */
  text?: string;
  /** The joined result for file_write, read a part at a time. */
  content: StreamedText;
}

/** A joined result up to this size is the run's answer, as a short document's is; a larger one is only written. */
const SHOWN_WHOLE_BYTES = 1024 * 1024;

async function wholeResult(store: PartStore, keys: string[]): Promise<WholeResult> {
  const content = new StreamedText(async function* () {
    for (const [i, key] of keys.entries()) {
      if (i) yield '\n\n';
      yield (await store.get(key)) ?? '';
    }
  });
  let bytes = 2 * Math.max(0, keys.length - 1);
  for (const key of keys) bytes += await store.bytes(key);
  return { bytes, content, ...(bytes <= SHOWN_WHOLE_BYTES ? { text: await content.text() } : {}) };
}

/**
 * The answer of a run whose joined result was written: the result itself when it is small enough
 * to show, otherwise a line saying where it was written and how large it is.
 */
export function wholeAnswer(whole: WholeResult, written: string[]): string {
  if (whole.text !== undefined) return whole.text;
  const size = formatBytes(whole.bytes);
  return written.length
    ? t('runs.longWritten', { size, path: written.join(', ') })
    : t('runs.longNotWritten', { size });
}

/**
 * The run's tools with file_write filling in the whole result where the model wrote the
 * placeholder: a text file's content is streamed from the part store, never held whole; any
 * other place (a Word file's content) gets the whole text.
 */
export function withWholeResult(registry: ToolRegistry, whole: WholeResult): ToolRegistry {
  const fill = async (v: unknown, text: () => Promise<string>): Promise<unknown> => {
    if (v instanceof StreamedText) return v;
    if (typeof v === 'string')
      return v.includes(RESULT_PLACEHOLDER) ? v.split(RESULT_PLACEHOLDER).join(await text()) : v;
    if (Array.isArray(v)) return Promise.all(v.map((x) => fill(x, text)));
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = await fill(x, text);
      return out;
    }
    return v;
  };
  const streamed = (args: Record<string, unknown>): Record<string, unknown> | undefined => {
    const { path, content } = args;
    const format = typeof path === 'string' ? formatOf(path) : undefined;
    if ((format !== 'md' && format !== 'txt') || typeof content !== 'string') return undefined;
    if (!content.includes(RESULT_PLACEHOLDER)) return undefined;
    const around = content.split(RESULT_PLACEHOLDER);
    const filled = new StreamedText(async function* () {
      for (const [i, piece] of around.entries()) {
        if (i) yield* whole.content.pieces();
        yield piece;
      }
    });
    return { ...args, content: filled };
  };
  let cached: string | undefined;
  const text = async () => {
    cached ??= whole.text ?? (await whole.content.text());
    return cached;
  };
  return new ToolRegistry(
    registry.list().map(
      (t): AnyTool =>
        t.name === FILE_WRITE_TOOL.name
          ? {
              ...t,
              execute: async (args, ctx) => {
                const direct = streamed(args as Record<string, unknown>);
                const rest = direct ?? (args as Record<string, unknown>);
                return t.execute((await fill(rest, text)) as typeof args, ctx);
              },
            }
          : t,
    ),
  );
}
