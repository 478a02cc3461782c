/**
 * A skill's inputs read into its first message: each file's text (OCR'd up front for images and
 * scans when the skill has the ocr tool), each folder's files in name order, and the results of
 * a per-file step (`each`) run on every file of a folder.
 */
import type { Cost } from '../../llm/models.js';
import { ZERO_USAGE } from '../../llm/types.js';
import {
  checkPath,
  type DocumentBlock,
  filesIn,
  MESSAGE_BUDGET_BYTES,
  ocrBlock,
  parsedBlock,
  type ReadOptions,
  readInput,
  supportedExtensions,
  transcriptBlock,
} from '../../skills/documents.js';
import { isBlank } from '../../skills/folder.js';
import type { StepResult } from '../../skills/message.js';
import type { SkillArg } from '../../skills/schema.js';
import { pushAll } from '../../support/arrays.js';
import { ZhiError } from '../../support/errors.js';
import { t } from '../../support/i18n/index.js';
import { formatDuration, transcribeFailure } from '../../tools/asr/transcribe.js';
import { FILE_READ_TOOL } from '../../tools/files/entries.js';
import { ParseDeclined } from '../../tools/files/platform-parse.js';
import { hiddenWarning } from '../../tools/files/readers/hidden.js';
import { OCR_TOOL } from '../../tools/ocr/entry.js';
import { displayPath } from '../../tools/paths.js';
import { reasonForPerson, ToolError } from '../../tools/types.js';
import { fileNamed } from '../egress.js';
import type { RunEvent } from '../events.js';
import { fitResults } from './combine-results.js';
import { runSteps, stepEvent } from './steps.js';
import type {
  GatheredInputs,
  Place,
  Readers,
  RunFn,
  SkillPlan,
  SkillRunRequest,
  SkillRuntime,
  Toolbox,
} from './types.js';

export type { StepResult } from '../../skills/message.js';

/** What reading one input needs: the readers (and their prices), and where the person's words came from. */
type ReadAccess = Readers & Pick<Place, 'cwd' | 'grants'>;

/** Read every file and folder input of the request (running `each` steps where the skill says so). */
export async function* gatherInputs(
  req: SkillRunRequest,
  rt: SkillRuntime,
  plan: SkillPlan,
  run: RunFn,
): AsyncGenerator<RunEvent, GatheredInputs> {
  const canOcr = plan.tools.builtin.includes(OCR_TOOL.name);
  const read: ReadOptions = {
    read: rt.readDocument,
    canOcr,
    canRead: plan.tools.builtin.includes(FILE_READ_TOOL.name),
    canParse: Boolean(rt.parseFile),
    signal: rt.signal,
    budget: { left: MESSAGE_BUDGET_BYTES },
  };
  const out: GatheredInputs = {
    blocks: new Map(),
    results: new Map(),
    files: [],
    filesRead: 0,
    filesWritten: [],
    stores: [],
  };
  const show = (abs: string) => displayPath(rt.cwd, abs);
  for (const arg of req.skill.args) {
    const v = req.values[arg.name];
    if ((arg.type !== 'file' && arg.type !== 'directory') || typeof v !== 'string' || !v) continue;
    const where = await checkPath(rt.cwd, v, arg, req.inputsFrom);
    if (where.kind === 'file') {
      const doc = yield* readOne(where.abs, show(where.abs), read, req, rt);
      if (doc.text !== undefined) out.filesRead += 1;
      out.blocks.set(arg.name, { summary: `${doc.name} (${doc.note})`, docs: [doc] });
      continue;
    }
    const eachSkill = arg.each ? rt.catalog.skills.get(arg.each) : undefined;
    const { files, empty } = await folderInputs(where.abs, arg, canOcr, req, rt);
    // Empty files are left out (said, never sent): the model would make their contents up.
    if (empty.length) {
      const list = empty.map((f) => `${show(f)} (${t('runs.skipped.empty')})`).join(t('runs.skipped.sep'));
      yield { type: 'warning', message: t('runs.skipped.why', { files: list }) };
    }
    if (!files.length) {
      throw new ZhiError({
        kind: 'usage',
        what: { key: 'skills.err.emptyFolder', params: { path: show(where.abs) } },
      });
    }
    if (eachSkill) {
      const list: StepResult[] = [];
      for (const { file, outcome: r } of yield* runSteps(run, eachSkill, files, req, rt, {
        outputDir: plan.outputDir,
        folder: where.abs,
      })) {
        out.filesRead += r.filesRead;
        pushAll(out.filesWritten, r.filesWritten);
        list.push({ file: show(file), text: r.text, ok: r.ok });
      }
      const input = { argName: arg.name, folder: `${show(where.abs)}/`, each: eachSkill.name };
      const fitted = yield* fitResults(list, input, read.budget, { req, rt, plan });
      // Interrupted while combining: the run stops before its own call (runPlanned checks).
      if (!fitted) return out;
      if (fitted.store) out.stores.push(fitted.store);
      out.results.set(arg.name, fitted.results);
      continue;
    }
    out.blocks.set(arg.name, yield* readFolder(files, show(where.abs), read, req, rt, out));
  }
  for (const file of req.files ?? []) {
    const where = await checkPath(rt.cwd, file, FREE_FILE, req.inputsFrom);
    const doc = yield* readOne(where.abs, show(where.abs), read, req, rt);
    if (doc.text !== undefined) out.filesRead += 1;
    out.files.push(doc);
  }
  return out;
}

/** The files of a folder input the skill (or its `each` step) processes, and the empty ones left out. */
export async function folderInputs(
  dir: string,
  arg: SkillArg,
  canOcr: boolean,
  req: SkillRunRequest,
  rt: Pick<Toolbox, 'catalog'> & Pick<Place, 'cwd'>,
): Promise<{ files: string[]; empty: string[] }> {
  const eachSkill = arg.each ? rt.catalog.skills.get(arg.each) : undefined;
  const files: string[] = [];
  const empty: string[] = [];
  for (const f of await filesIn(
    dir,
    supportedExtensions(arg, canOcr || Boolean(eachSkill?.tools.includes(OCR_TOOL.name))),
    req.inputsFrom === 'model' ? rt.cwd : undefined,
  ))
    ((await isBlank(f)) ? empty : files).push(f);
  return { files, empty };
}

/** How a file named in a free-form task is checked (a file, not a folder). */
const FREE_FILE: SkillArg = { name: 'file', type: 'file', required: false };

async function* readFolder(
  files: string[],
  folder: string,
  read: ReadOptions,
  req: SkillRunRequest,
  rt: ReadAccess,
  out: GatheredInputs,
): AsyncGenerator<RunEvent, { summary: string; docs: DocumentBlock[] }> {
  const docs: DocumentBlock[] = [];
  for (const [i, file] of files.entries()) {
    if (files.length > 1) yield stepEvent(req, i, files.length, file);
    const doc = yield* readOne(file, displayPath(rt.cwd, file), read, req, rt);
    if (doc.text !== undefined) out.filesRead += 1;
    docs.push(doc);
  }
  return { summary: `${folder}/ (${files.length} files, in name order)`, docs };
}

/** An audio input's block: its transcript (the runtime shows the price and gets consent first). */
async function* transcribeOne(
  abs: string,
  name: string,
  o: ReadOptions,
  req: SkillRunRequest,
  rt: ReadAccess,
): AsyncGenerator<RunEvent, DocumentBlock> {
  if (!rt.transcribe) {
    throw new ZhiError({ kind: 'usage', what: { key: 'asr.err.noClient', params: { path: name } } });
  }
  yield { type: 'skill_asr', skill: req.skill.name, file: name };
  const got = yield* paidRead(
    req,
    () => rt.transcribe!(abs, { display: name, signal: o.signal, skill: req.skill.name }),
    (err) => transcribeFailure(err, name),
  );
  return transcriptBlock(name, got.text, formatDuration(got.seconds), o.budget);
}

/** A file nothing here can read, through Zhipu's file parser (the runtime gets consent first). */
async function* parseOne(
  abs: string,
  name: string,
  o: ReadOptions,
  req: SkillRunRequest,
  rt: ReadAccess,
): AsyncGenerator<RunEvent, DocumentBlock> {
  const got = yield* paidRead(
    req,
    () => rt.parseFile!(abs, { display: name, signal: o.signal }),
    (err) => parseError(err, name),
  );
  return parsedBlock(name, got.text, o.budget);
}

/**
 * A paid platform read of one input (speech recognition, the file parser): its priced cost is
 * added to the run and reported as a usage event; a tool's failure becomes the caller's error.
 */
async function* paidRead<T extends { model: string; cost: Cost | undefined }>(
  req: SkillRunRequest,
  call: () => Promise<T>,
  failure: (err: ToolError) => ZhiError,
): AsyncGenerator<RunEvent, T> {
  let got: T;
  try {
    got = await call();
  } catch (err) {
    if (err instanceof ZhiError || !(err instanceof ToolError)) throw err;
    throw failure(err);
  }
  const cost = req.usage.addPriced(got.model, got.cost ?? unknownCost(req));
  yield { type: 'usage', model: got.model, usage: { ...ZERO_USAGE }, cost };
  return got;
}

/** The file parser's failure: declined, or the input could not be read (and why). */
function parseError(err: ToolError, name: string): ZhiError {
  const declined = err instanceof ParseDeclined;
  return new ZhiError({
    kind: declined ? 'budget' : 'io',
    what: { key: declined ? 'parser.err.declined' : 'skills.err.unreadableInput', params: { path: name } },
    ...(declined ? {} : { why: reasonForPerson(err) }),
    cause: err,
  });
}

function unknownCost(req: SkillRunRequest): Cost {
  const p = req.usage.platform;
  return { amount: 0, currency: p.currency, covered: p.coveredByPlan, approx: true };
}

/** One input file's block: its text, OCR'd up front when it is an image or a scan. */
async function* readOne(
  abs: string,
  name: string,
  o: ReadOptions,
  req: SkillRunRequest,
  rt: ReadAccess,
): AsyncGenerator<RunEvent, DocumentBlock> {
  const outcome = await readInput(abs, name, o);
  if ('block' in outcome) {
    // Hidden text that reads like an instruction: the person is told before the model reads it.
    const warning = outcome.block.hidden && hiddenWarning(name, outcome.block.hidden);
    if (warning) yield { type: 'warning', message: warning };
    return outcome.block;
  }
  // Read by a platform service (OCR, speech, the file parser): the file leaves the computer. A
  // file the model chose (a composite skill's step) goes only when the person named it.
  if (req.inputsFrom === 'model' && !fileNamed(name, rt.grants?.web.said ?? [])) {
    throw new ToolError(
      `${name} would be uploaded to the platform to be read, and the user did not name it; nothing was sent. Ask the user to name the file if it should be read.`,
      { key: 'safety.upload.unnamed', params: { file: name } },
    );
  }
  if ('audio' in outcome) return yield* transcribeOne(abs, name, o, req, rt);
  if ('parse' in outcome) return yield* parseOne(abs, name, o, req, rt);
  if (!rt.ocr) return ocrBlock(name, outcome.ocr, undefined, o.budget);
  yield { type: 'skill_ocr', skill: req.skill.name, file: name };
  try {
    const doc = await rt.ocr(abs, { display: name, signal: o.signal });
    const cost = req.usage.add(doc.model, doc.usage);
    yield { type: 'usage', model: doc.model, usage: doc.usage, cost };
    return ocrBlock(name, outcome.ocr, doc.markdown, o.budget);
  } catch (err) {
    if (err instanceof ZhiError || !(err instanceof ToolError)) throw err;
    throw new ZhiError({
      kind: 'io',
      what: { key: 'skills.err.ocrFailed', params: { path: name } },
      why: reasonForPerson(err),
      cause: err,
    });
  }
}
