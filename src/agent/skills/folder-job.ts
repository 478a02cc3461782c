/**
 * A skill as the work of a folder run (agent/folder/job.ts): its name, model and output folder,
 * whether its writes could be allowed at all, what it would cost (`--dry-run`), the Batch API's
 * rounds for it (`--batch`), and its run on one file — the folder input filled with that file,
 * its outputs placed beside its subfolder's, its writes recorded before they happen.
 */
import { basename, join, relative } from 'node:path';
import { resolveTools, skillModel } from '../../skills/resolve.js';
import type { Skill } from '../../skills/schema.js';
import { ZhiError } from '../../support/errors.js';
import { traitsOf } from '../../tools/index.js';
import type { PlannedWrite } from '../../tools/types.js';
import { startRounds } from '../batch-api/batch-run.js';
import type { RunEvent } from '../events.js';
import { type FolderOptions, folderOptions } from '../folder/folder-options.js';
import type { CallRounds, FileSetup, FolderJob } from '../folder/job.js';
import type { RunManifest } from '../folder/manifest.js';
import type { OutputPlace } from '../folder/preflight.js';
import { batchBlocker } from './batchable.js';
import { dryRunFolder } from './dry-run.js';
import type { ModelAccess, Person, Place, RunFn, SkillRunRequest, SkillRuntime, Toolbox } from './types.js';

/** The output folder of a run, decided as runSkill decides it. */
export function runOutputDir(req: SkillRunRequest, rt: Pick<Place, 'outputFolder'>): string {
  return req.outputDir ?? rt.outputFolder(req.skill.output.directory);
}

/** The skill run `run` on every file of a folder, for its input `argName`. */
export function skillFolderJob(
  run: RunFn,
  req: SkillRunRequest,
  rt: SkillRuntime,
  argName: string,
): FolderJob {
  const { skill } = req;
  const outputDir = runOutputDir(req, rt);
  const options = folderOptions(rt.folder);
  return {
    name: skill.name,
    hash: skill.hash,
    model: skillModel(skill, {
      override: req.model,
      configured: rt.skillModel,
      custom: rt.platform.id === 'custom',
    }),
    recordModel: req.model ?? skill.model ?? rt.skillModel,
    depth: (req.chain?.length ?? 0) + 1,
    promisesFile: skill.answerIsFile === true,
    outputDir,
    usage: req.usage,
    ...{ cwd: rt.cwd, signal: rt.signal, mode: rt.mode, llm: rt.llm, calls: rt.calls },
    options,
    writesRefused: () => writesRefused(skill, rt),
    dryRun: (files, todo) => dryRunFolder({ run, req, rt, argName, files, todo }),
    startRounds: (manifest, todo) => skillRounds(req, rt, options, manifest, todo),
    runFile: (file, setup) =>
      run(fileRequest(req, rt, { argName, file, setup, outputDir }), fileRuntime(rt, setup)),
  };
}

/** One file's request: the folder input filled with it, trusted already, its file promised. */
function fileRequest(
  req: SkillRunRequest,
  rt: Pick<Place, 'cwd'>,
  o: { argName: string; file: string; setup: FileSetup; outputDir: string },
): SkillRunRequest {
  // A file the model's folder led to is passed on relative, so the nested run checks it again.
  const value = req.inputsFrom === 'model' ? relative(rt.cwd, o.file) : o.file;
  const values = { ...req.values, [o.argName]: value };
  return placed(
    { ...req, values, usage: o.setup.usage, trusted: true, mustWrite: true },
    { place: o.setup.place, file: o.file, outputDir: o.outputDir },
  );
}

/**
 * The runtime of one file's run: its calls through the folder's gate (with --batch, the rounds,
 * which take a long document's parts and a composite's steps all at once), and every file it is
 * about to write recorded by the folder run first (so a kill at any point leaves a record of it).
 */
function fileRuntime(rt: SkillRuntime, setup: FileSetup): SkillRuntime {
  const beforeWrite = async (w: PlannedWrite) => {
    await rt.hooks?.beforeWrite?.(w);
    await setup.beforeWrite(w);
  };
  return {
    ...rt,
    llm: setup.llm,
    calls: setup.calls,
    ...(setup.jobs ? { folder: { ...rt.folder, jobs: setup.jobs } } : {}),
    hooks: { ...rt.hooks, beforeWrite },
  };
}

/** --batch: the Batch API's rounds for this skill (said first: no platform, then a skill that cannot be). */
async function* skillRounds(
  req: SkillRunRequest,
  rt: Pick<ModelAccess, 'client'> & Pick<Person, 'mode' | 'signal'> & Pick<Place, 'cwd'>,
  o: FolderOptions,
  manifest: RunManifest,
  todo: number,
): AsyncGenerator<RunEvent, CallRounds | undefined> {
  const blocked = rt.client ? batchBlocker(req.skill) : undefined;
  if (blocked) throw blocked;
  return yield* startRounds({
    ...{ client: rt.client, platform: req.usage.platform, manifest, skill: req.skill.name },
    ...{ cwd: rt.cwd, mode: rt.mode, jobs: o.jobs, signal: rt.signal, expected: todo, pollMs: o.pollMs },
    ...(o.batchLimits ? { limits: o.batchLimits } : {}),
  });
}

/** The skill's own tools that write the run's output files. */
export function writingTools(skill: Skill, rt: Pick<Toolbox, 'catalog' | 'builtinTools'>): string[] {
  return resolveTools(skill, rt.catalog, rt.builtinTools).builtin.filter((n) => traitsOf(n).writesOutput);
}

/**
 * A run whose skill writes files, with no person to say yes (no terminal) and no --auto: every
 * write would be refused after its call was paid. Known now, so said now.
 */
export function writesRefused(
  skill: Skill,
  rt: Pick<Toolbox, 'catalog' | 'builtinTools'> & Pick<Person, 'mode' | 'prompter'>,
): ZhiError | undefined {
  if (rt.mode === 'auto' || rt.prompter.interactive) return undefined;
  const tools = writingTools(skill, rt);
  if (!tools.length) return undefined;
  return new ZhiError({
    kind: 'usage',
    what: { key: 'runs.err.cannotWrite', params: { skill: skill.name } },
    why: { key: 'runs.err.cannotWrite.why', params: { tools: tools.join(', ') } },
    tries: [{ key: 'runs.try.auto' }],
  });
}

/**
 * One file's request placed: its outputs beside those of the other files of its subfolder, and,
 * where its stem is shared, the name it is told to use.
 */
export function placed(
  request: SkillRunRequest,
  o: { place: OutputPlace; file: string; outputDir: string },
): SkillRunRequest {
  const out = { ...request };
  if (o.place.subdir) out.outputDir = join(o.outputDir, o.place.subdir);
  if (!o.place.nameAs) return out;
  const hint = `Another input in this folder has the same name as "${basename(o.file)}" without its extension. In the names of the files you write, use "${o.place.nameAs}" where you would use the document's name, so the two do not collide.`;
  out.instructions = request.instructions ? `${request.instructions}\n\n${hint}` : hint;
  return out;
}
