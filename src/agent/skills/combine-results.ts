/**
 * A composite skill's per-file results (`each:`) kept within one message. When they fit, they
 * are passed as they are. When they do not, they are combined in rounds like a long document's
 * parts (combine-rounds.ts): groups no larger than a part, each combined by the composite's model with
 * the file names kept, until everything fits; every round's results are kept on disk
 * (part-store.ts, keyed by the results themselves, the skill and the model), so a rerun after a
 * kill pays only for what is missing. Nothing is cut without saying so.
 */

import { createHash } from 'node:crypto';
import { MESSAGE_BUDGET_BYTES } from '../../skills/documents.js';
import { withoutInput } from '../../skills/inputs.js';
import { resultBlock, type StepResult } from '../../skills/message.js';
import { ZhiError } from '../../support/errors.js';
import { t } from '../../support/i18n/index.js';
import { formatBytes, truncateText } from '../../support/text.js';
import type { RunEvent } from '../events.js';
import { combineInRounds, joinedText, measured, partBytes, type RoundItem } from './combine-rounds.js';
import { type PieceRun, type PiecesRuntime, runPieces } from './long-doc-parts.js';
import { PartStore } from './part-store.js';
import type { SkillPlan, SkillRunRequest } from './types.js';

/** Room left in the message for the skill's prompt, its tools and the input labels. */
const RESERVE_BYTES = 8 * 1024;
/** The least the results get, however much other inputs took. */
const MIN_FIT_BYTES = 16 * 1024;
/** The truncation marker's own bytes (a cut result still fits where it has to). */
const MARKER_BYTES = 100;

/** What the results may take of a message with `left` bytes left for inputs. */
export function fitBytes(left = MESSAGE_BUDGET_BYTES): number {
  return Math.max(MIN_FIT_BYTES, left - RESERVE_BYTES);
}

export interface FittedResults {
  results: StepResult[];
  /** Where the rounds' results are kept (undefined when no round was needed): discarded once the run answers. */
  store?: PartStore;
}

/** What the results of one folder input are fitted into, and how they are named. */
export interface ResultsInput {
  argName: string;
  /** The folder as shown ("today/"). */
  folder: string;
  /** The per-file skill (for the combining instruction). */
  each: string;
}

/**
 * The per-file results within `budget.left` (less room for the prompt): as they are when they
 * fit, else combined in rounds. Undefined when interrupted.
 */
export async function* fitResults(
  list: StepResult[],
  input: ResultsInput,
  budget: { left: number },
  run: { req: SkillRunRequest; rt: PiecesRuntime; plan: SkillPlan },
): AsyncGenerator<RunEvent, FittedResults | undefined> {
  const fit = fitBytes(budget.left);
  const total = list.reduce((n, r) => n + Buffer.byteLength(`${resultBlock(r, r.text)}\n\n`, 'utf8'), 0);
  if (total <= fit) {
    budget.left -= total;
    return { results: list };
  }
  const texts = yield* cutAlone(list, fit);
  yield {
    type: 'warning',
    message: t('skills.warn.combineRounds', {
      files: list.length,
      folder: input.folder,
      size: formatBytes(total),
      budget: formatBytes(fit),
    }),
  };
  const { rt, plan } = run;
  const group = Math.min(fit, partBytes(plan.model));
  const store = resultsStore(list, texts, input, run, group);
  // A file's own result is in memory; a round's is read from the store.
  const text = async (x: Span) =>
    x.key.startsWith('r') ? ((await store.get(x.key)) ?? '').trim() : texts[x.from - 1]!;
  const block = async (x: Span) => resultBlock(asResult(list, x), await text(x));
  const items: RoundItem[] = [];
  for (const [i] of list.entries())
    items.push(await measured({ from: i + 1, to: i + 1, key: `f${i + 1}` }, block));
  const pieces: PieceRun = { ...run, argName: input.argName, file: input.folder, store, what: 'results' };
  const combined = yield* combineInRounds(
    items,
    {
      fit,
      group,
      block,
      piece: (g, key) => ({
        key,
        label: `${input.folder} (results of files ${g[0]!.from}–${g.at(-1)!.to} of ${list.length})`,
        text: () => joinedText(g, block),
        instruction: combinePrompt(input.each, g[0]!.from, g.at(-1)!.to, list.length),
      }),
    },
    (p, round) => runPieces(pieces, p, { round }),
  );
  if (!combined) {
    if (rt.signal.aborted) return undefined;
    throw new ZhiError({
      kind: 'io',
      what: {
        key: 'skills.err.combineFailed',
        params: { file: input.folder, problem: t('skills.err.combineStopped') },
      },
      tries: [{ key: 'runs.try.longAgain' }],
    });
  }
  const results: StepResult[] = [];
  for (const x of combined) results.push({ ...asResult(list, x), text: await text(x) });
  budget.left -= yield* shareOut(results, fit, input.folder);
  return { results, store };
}

type Span = Omit<RoundItem, 'bytes'>;

/**
 * The results' texts, a result larger than a whole message cut (said, with the file's name): it
 * could not be sent even alone.
 */
async function* cutAlone(list: StepResult[], fit: number): AsyncGenerator<RunEvent, string[]> {
  const texts = list.map((r) => r.text);
  for (const [i, r] of list.entries()) {
    const cut = truncateText(r.text, fit - MARKER_BYTES - Buffer.byteLength(resultBlock(r, ''), 'utf8'));
    if (!cut.truncated) continue;
    texts[i] = cut.text;
    const params = { file: r.file, size: formatBytes(cut.bytes), budget: formatBytes(fit) };
    yield { type: 'warning', message: t('skills.warn.resultCut', params) };
  }
  return texts;
}

/** Where the rounds' results are kept, keyed by the results themselves, the skill and the model. */
function resultsStore(
  list: StepResult[],
  texts: string[],
  input: ResultsInput,
  run: { req: SkillRunRequest; plan: SkillPlan },
  group: number,
): PartStore {
  const { req, plan } = run;
  return PartStore.for(plan.outputDir, {
    parts: hashOf(list, texts),
    other: [
      'each-results',
      req.skill.name,
      req.skill.hash,
      plan.model,
      group,
      input.each,
      withoutInput(req.values, input.argName),
    ],
  });
}

/** An item as a result: one file's, or a group's (the files it covers, combined). */
function asResult(list: StepResult[], x: Span): StepResult {
  if (x.from === x.to) return list[x.from - 1]!;
  const first = list[x.from - 1]!.file;
  const last = list[x.to - 1]!.file;
  return {
    file: `${first} … ${last}`,
    text: '',
    ok: true,
    files: { from: x.from, to: x.to, total: list.length },
  };
}

/** The hash of the results (their files, whether they failed, their texts as sent). */
function hashOf(list: StepResult[], texts: string[]): string {
  const hash = createHash('sha256');
  for (const [i, r] of list.entries()) hash.update(`${r.file}\0${r.ok}\0${texts[i]}\0`);
  return hash.digest('hex');
}

/**
 * Combining could not bring the results within one message (each group already holds one item):
 * every result gets an equal share, said once.
 */
async function* shareOut(
  results: StepResult[],
  fit: number,
  folder: string,
): AsyncGenerator<RunEvent, number> {
  const size = () =>
    results.reduce((n, r) => n + Buffer.byteLength(`${resultBlock(r, r.text)}\n\n`, 'utf8'), 0);
  if (size() > fit) {
    const share = Math.floor(fit / results.length) - MARKER_BYTES;
    const cut = results.filter((r) => {
      const c = truncateText(r.text, Math.max(0, share - Buffer.byteLength(resultBlock(r, ''), 'utf8')));
      r.text = c.text;
      return c.truncated;
    });
    if (cut.length)
      yield {
        type: 'warning',
        message: t('skills.warn.resultsCut', { folder, count: cut.length, share: formatBytes(share) }),
      };
  }
  return size();
}

function combinePrompt(each: string, from: number, to: number, total: number): string {
  return `This run combines the results of files ${from} to ${to} of ${total}, given in order in the user's message: each <result file="…"> is what the ${each} skill made of one file (a <result files="…"> already combines several). This is an intermediate step: do not do the final step of your instructions yet. Combine these results into one, to be combined with the other files' results afterwards: merge what repeats, keep every figure, name, date, table row and open question, and keep the file name with everything that comes from a file (a result marked failed="true": say which file could not be read). Do not call tools and do not write files: answer with the combined result and nothing else.`;
}
