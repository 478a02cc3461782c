/**
 * A composite skill's per-file results (`each:`) kept within one message. When they fit, they
 * are passed as they are. When they do not, they are combined in rounds like a long document's
 * parts (rounds.ts): groups no larger than a part, each combined by the composite's model with
 * the file names kept, until everything fits; every round's results are kept on disk
 * (part-store.ts, keyed by the results themselves, the skill and the model), so a rerun after a
 * kill pays only for what is missing. Nothing is cut without saying so.
 */

import type { StepResult } from '../../skills/documents.js';
import { resultBlock } from '../../skills/documents.js';
import { ZhiError } from '../../support/errors.js';
import { t } from '../../support/i18n/index.js';
import { formatBytes, truncateText } from '../../support/text.js';
import type { RunEvent } from '../events.js';
import { type PieceRun, runPieces } from './long-doc-parts.js';
import { PartStore } from './part-store.js';
import { combineInRounds, partBytes, type RoundItem, renderedBytes, roundKey } from './rounds.js';
import type { SkillPlan, SkillRunRequest, SkillRuntime } from './run.js';

/** Room left in the message for the skill's prompt, its tools and the input labels. */
const RESERVE_BYTES = 8 * 1024;
/** The least the results get, however much other inputs took. */
const MIN_FIT_BYTES = 16 * 1024;
/** The truncation marker's own bytes (a cut result still fits where it has to). */
const MARKER_BYTES = 100;

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
  run: { req: SkillRunRequest; rt: SkillRuntime; plan: SkillPlan },
): AsyncGenerator<RunEvent, FittedResults | undefined> {
  const fit = Math.max(MIN_FIT_BYTES, budget.left - RESERVE_BYTES);
  const items = list.map((r, i) => ({ from: i + 1, to: i + 1, text: r.text }));
  const render = renderResult(list);
  const total = renderedBytes(items, render);
  if (total <= fit) {
    budget.left -= total;
    return { results: list };
  }
  // One result larger than a whole message is cut (said, with the file's name): it could not be
  // sent even alone.
  for (const [i, r] of list.entries()) {
    const cut = truncateText(r.text, fit - MARKER_BYTES - Buffer.byteLength(resultBlock(r, ''), 'utf8'));
    if (!cut.truncated) continue;
    items[i]!.text = cut.text;
    yield {
      type: 'warning',
      message: t('skills.warn.resultCut', {
        file: r.file,
        size: formatBytes(cut.bytes),
        budget: formatBytes(fit),
      }),
    };
  }
  yield {
    type: 'warning',
    message: t('skills.warn.combineRounds', {
      files: list.length,
      folder: input.folder,
      size: formatBytes(total),
      budget: formatBytes(fit),
    }),
  };
  const { req, rt, plan } = run;
  const group = Math.min(fit, partBytes(plan.model));
  const store = PartStore.for(plan.outputDir, {
    // The results themselves (with their files and whether they failed) key the store.
    text: list.map((r, i) => `${r.file}\0${r.ok}\0${items[i]!.text}`).join('\0'),
    other: [
      'each-results',
      req.skill.name,
      req.skill.hash,
      plan.model,
      group,
      input.each,
      otherValues(req, input),
    ],
  });
  const pieces: PieceRun = {
    req,
    rt,
    plan,
    argName: input.argName,
    file: input.folder,
    store,
    what: 'results',
  };
  const combined = yield* combineInRounds(
    items,
    {
      fit,
      group,
      render,
      piece: (g, round, i) => ({
        key: roundKey(round, i),
        label: `${input.folder} (results of files ${g[0]!.from}–${g.at(-1)!.to} of ${list.length})`,
        text: g.map(render).join('\n\n'),
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
      tries: [{ key: 'batch.try.longAgain' }],
    });
  }
  const results = combined.map((x) => asResult(list, x));
  budget.left -= yield* shareOut(results, fit, input.folder);
  return { results, store };
}

/** How a result is written in the message (as composeMessage writes it). */
function renderResult(list: StepResult[]): (x: RoundItem) => string {
  return (x) => resultBlock(asResult(list, x), x.text);
}

/** An item as a result: one file's, or a group's (the files it covers, combined). */
function asResult(list: StepResult[], x: RoundItem): StepResult {
  if (x.from === x.to) return { ...list[x.from - 1]!, text: x.text };
  const first = list[x.from - 1]!.file;
  const last = list[x.to - 1]!.file;
  return {
    file: `${first} … ${last}`,
    text: x.text,
    ok: true,
    files: { from: x.from, to: x.to, total: list.length },
  };
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

/** The other inputs of the run (a result depends on them too), without the folder's. */
function otherValues(req: SkillRunRequest, input: ResultsInput): SkillRunRequest['values'] {
  const { [input.argName]: _gone, ...rest } = req.values;
  return rest;
}

function combinePrompt(each: string, from: number, to: number, total: number): string {
  return `This run combines the results of files ${from} to ${to} of ${total}, given in order in the user's message: each <result file="…"> is what the ${each} skill made of one file (a <result files="…"> already combines several). This is an intermediate step: do not do the final step of your instructions yet. Combine these results into one, to be combined with the other files' results afterwards: merge what repeats, keep every figure, name, date, table row and open question, and keep the file name with everything that comes from a file (a result marked failed="true": say which file could not be read). Do not call tools and do not write files: answer with the combined result and nothing else.`;
}
