/**
 * Running a long document's pieces of work on the skill's model, several at once: the parts
 * themselves (map), then, for a result that is combined, the rounds that combine the parts'
 * results a group at a time, so no request is ever larger than a part. Every result is kept in
 * the PartStore as it comes; a result kept by an earlier run is used without a call.
 */
import { composeMessage } from '../../skills/message.js';
import { ZhiError } from '../../support/errors.js';
import { t } from '../../support/i18n/index.js';
import { ToolRegistry } from '../../tools/registry.js';
import type { AgentResult, RunEvent } from '../events.js';
import { gated } from '../folder/call-gate.js';
import { type Attempt, DEFAULT_JOBS, poolEvents } from '../folder/pool.js';
import { runAgent } from '../loop.js';
import type { PartStore } from './part-store.js';
import { skillSystemPrompt } from './skill-prompt.js';
import type {
  FolderSettings,
  ModelAccess,
  Person,
  Place,
  SkillPlan,
  SkillRunRequest,
  Toolbox,
} from './types.js';

/** One piece of work: a text, what it is called in the message, and the instruction for it. */
export interface Piece {
  /** Its name in the store (`p0001`, `r1-0003`). */
  key: string;
  /** What the document block is called ("notes.txt (part 3 of 12)"). */
  label: string;
  /** Its text, read when its call is made (a part from the file, a round from the kept results). */
  text: () => Promise<string>;
  /** Added to the skill's prompt for this call. */
  instruction: string;
}

/** What the parts' calls need of the run: the model, the person, the place, the loop's hooks. */
export type PiecesRuntime = Pick<ModelAccess, 'llm' | 'calls'> &
  Pick<Person, 'prompter' | 'mode' | 'signal'> &
  Pick<Place, 'cwd' | 'today'> &
  Pick<Toolbox, 'hooks'> &
  FolderSettings;

export interface PieceRun {
  req: SkillRunRequest;
  rt: PiecesRuntime;
  plan: SkillPlan;
  argName: string;
  /** The document as the person named it (for errors and progress). */
  file: string;
  store: PartStore;
  /** What is being worked on: a long document (default), or a composite skill's per-file results. */
  what?: 'document' | 'results';
}

/**
 * Run every piece that has no kept result. Results go to the store only (read back from there):
 * true when every piece has one, undefined when interrupted.
 */
export async function* runPieces(
  o: PieceRun,
  pieces: Piece[],
  stage: { round: number },
): AsyncGenerator<RunEvent, true | undefined> {
  const { req } = o;
  const jobs = o.rt.folder?.jobs ?? DEFAULT_JOBS;
  // Parts share the run's budget of calls at once; a document run on its own gets one.
  const { rt, gate, own } = gated(o.rt, jobs);
  const system = skillSystemPrompt(req.skill, {
    outputDir: '',
    today: rt.today ?? new Date().toISOString().slice(0, 10),
    writes: false,
  });
  const kept = await Promise.all(pieces.map((p) => o.store.has(p.key)));
  const todo = pieces.map((_, i) => i).filter((i) => !kept[i]);
  let done = pieces.length - todo.length;
  const work = async (i: number, emit: (ev: RunEvent) => void): Promise<Attempt<AgentResult>> => {
    const piece = pieces[i]!;
    const r = await askPiece({ ...o, rt }, piece, system, emit);
    if (r.stopReason === 'answer') {
      await o.store.put(piece.key, r.text);
      kept[i] = true;
      done += 1;
      const key =
        o.what === 'results'
          ? 'skills.combineProgress'
          : stage.round
            ? 'runs.longRoundProgress'
            : 'runs.longPartProgress';
      emit({
        type: 'progress',
        id: 'long-document',
        note: t(key, { done, total: pieces.length, round: stage.round }),
        part: { done, total: pieces.length, round: stage.round },
      });
      // The result is in the store: the pool's outcomes need not hold it too.
      return { kind: 'done', value: { ...r, text: '' } };
    }
    const kind = r.error?.kind;
    if (kind === 'rate_limit' || kind === 'overloaded') return { kind: 'retry', reason: kind, value: r };
    return { kind: kind === 'balance' || kind === 'auth' ? 'stop' : 'failed', value: r };
  };
  const { outcomes } = yield* poolEvents(
    todo,
    (emit: (ev: RunEvent) => void) => ({
      work: (i) => work(i, emit),
      onLimit: (n: number) => (own ? gate.setLimit(n) : undefined),
    }),
    { jobs, signal: rt.signal, caps: gate },
  );
  if (rt.signal.aborted) return undefined;
  const failed = outcomes.findIndex((x) => x.status !== 'done');
  if (failed >= 0) {
    const err = outcomes[failed]!.value?.error;
    if (err) throw partError(err, o, kept.filter(Boolean).length, pieces.length);
    return undefined;
  }
  return true;
}

/** One piece's call: the skill's task for that piece alone, without tools; usage and warnings go on. */
async function askPiece(
  o: PieceRun,
  piece: Piece,
  system: string,
  emit: (ev: RunEvent) => void,
): Promise<AgentResult> {
  const { req, plan, rt } = o;
  const user = composeMessage({
    skill: req.skill,
    values: req.values,
    blocks: new Map([
      [
        o.argName,
        { summary: piece.label, docs: [{ name: piece.label, text: await piece.text(), note: piece.label }] },
      ],
    ]),
  });
  const gen = runAgent(
    [
      { role: 'system', content: `${system}\n\n${piece.instruction}` },
      { role: 'user', content: user },
    ],
    {
      llm: rt.llm,
      tools: new ToolRegistry(),
      prompter: rt.prompter,
      usage: req.usage,
      cwd: rt.cwd,
      outputDir: plan.outputDir,
      ...rt.hooks,
    },
    { model: plan.model, thinking: false, maxTurns: 1, mode: rt.mode, signal: rt.signal },
  );
  let step = await gen.next();
  while (!step.done) {
    if (step.value.type === 'usage' || step.value.type === 'warning') emit(step.value);
    step = await gen.next();
  }
  return step.value;
}

/**
 * A part that failed, said for a skill run: what was kept and that the same command goes on from
 * there; a part too long for the model gets advice that fits (not the chat's /compact).
 */
function partError(err: ZhiError, o: PieceRun, kept: number, total: number): ZhiError {
  const tooLong = err.kind === 'context_overflow';
  return new ZhiError({
    kind: err.kind,
    what: {
      key: o.what === 'results' ? 'skills.err.combineFailed' : 'runs.err.longPart',
      params: { file: o.file, problem: err.whatText() },
    },
    why: { key: 'runs.err.longKept', params: { kept, total } },
    tries: [
      ...(tooLong ? [{ key: 'runs.try.longSmaller' as const, params: { model: o.plan.model } }] : err.tries),
      { key: 'runs.try.longAgain' },
    ],
    cause: err,
  });
}
