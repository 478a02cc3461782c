import type { AgentResult, RunEvent } from '../../agent/events.js';
import type { Prompter } from '../../agent/loop.js';
import type { PermissionMode, SessionGrants } from '../../agent/permissions.js';
import { recordSkillRun } from '../../agent/sessions/skill-run.js';
import { runSkill } from '../../agent/skills/run.js';
import type { SkillRuntime } from '../../agent/skills/types.js';
import type { LlmClient, PlatformClient } from '../../llm/types.js';
import type { UsageTracker } from '../../llm/usage.js';
import type { SkillCatalog } from '../../skills/discovery.js';
import type { InputValues } from '../../skills/inputs.js';
import type { Skill } from '../../skills/schema.js';
import type { OutputFormat } from '../args.js';
import { newUsage } from '../client.js';
import type { AppContext } from '../context.js';
import { defaultJobs, type FolderFlags } from '../folder-flags.js';
import { pump } from '../interrupt.js';
import { nobodyPrompter, terminalPrompter } from '../prompter.js';
import { drawRun, richTerminal, runRenderer } from '../render/draw-run.js';
import { OUTPUT_FORMATS, runConsumer } from '../render/formats/index.js';
import type { ReplRenderer } from '../render/repl-renderer.js';
import type { Style } from '../render/style.js';
import { sessionPlace } from '../sessions/attach.js';
import { createSkillRuntime } from './runtime.js';

// Moved to catalog.ts (light enough for `zhi skill list`); re-exported for the other callers.
export { findSkill } from './catalog.js';

export interface ExecuteOptions {
  ctx: AppContext;
  catalog: SkillCatalog;
  skill: Skill;
  values: InputValues;
  extraDocuments?: { name: string; text: string }[];
  /** A skill without declared inputs: the person's task and the files they named. */
  task?: string;
  files?: string[];
  model?: string | undefined;
  prompter: Prompter;
  mode: PermissionMode;
  signal: AbortSignal;
  usage: UsageTracker;
  format: OutputFormat;
  out: Style;
  err: Style;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WriteStream;
  llm?: LlmClient;
  client?: PlatformClient;
  /** `--jobs`, `--recursive`, `--include`, `--batch`… of a folder run. */
  folder?: FolderFlags;
  /** The chat's web approvals (REPL `/run`): a site allowed "always" stays allowed. */
  grants?: SessionGrants | undefined;
  /** Draw the run like chat (a colour terminal): the answer as rendered Markdown, streamed. */
  renderer?: ReplRenderer | undefined;
}

/**
 * A skill run from the command line (`zhi run`, the new skill right after `zhi skill new`): the
 * model of --model, this invocation's permission mode, a person asked only when there is a
 * terminal, the output format of --output-format unless given; Ctrl+C stops it.
 */
export async function runFromCommandLine(
  ctx: AppContext,
  o: Pick<ExecuteOptions, 'catalog' | 'skill' | 'values' | 'extraDocuments' | 'task' | 'files' | 'folder'> & {
    format?: OutputFormat;
  },
): Promise<AgentResult> {
  const format = o.format ?? ctx.args.flags.outputFormat;
  // In a terminal the answer is drawn as chat draws it; piped, it stays the plain text it is. The
  // renderer exists before the run, so a question can stop its live area.
  const renderer =
    OUTPUT_FORMATS[format].drawnLikeChat && richTerminal(ctx)
      ? await runRenderer(
          ctx,
          { stdout: process.stdout, stderr: (s) => process.stderr.write(s) },
          { verbose: () => ctx.args.flags.verbose > 0, oneShot: true },
        )
      : undefined;
  return ctx.interrupt.run((signal) =>
    executeSkill({
      ...o,
      ctx,
      renderer,
      model: ctx.args.flags.model,
      prompter: ctx.stdinIsTTY
        ? terminalPrompter(ctx.err, ctx.interrupt, undefined, renderer)
        : nobodyPrompter,
      mode: ctx.mode,
      signal,
      usage: newUsage(ctx),
      format,
      out: ctx.out,
      err: ctx.err,
      stdoutIsTTY: ctx.stdoutIsTTY,
      stderrIsTTY: ctx.stderrIsTTY,
    }),
  );
}

/**
 * Run a skill and render it: the shared tail of `zhi run` and `/run`. stdout gets the final answer
 * only (or the JSON document); progress, steps, nested skills and the done line go to stderr.
 */
export async function executeSkill(o: ExecuteOptions): Promise<AgentResult> {
  if (o.renderer) return drawRun(o.renderer, recordedSkillRun(o), () => o.usage);
  const printer = await runConsumer(o.ctx, o.format, {
    out: o.out,
    err: o.err,
    stdoutIsTTY: o.stdoutIsTTY,
    stderrIsTTY: o.stderrIsTTY,
    ...(o.stdout ? { stdout: o.stdout } : {}),
    ...(o.stderr ? { stderr: o.stderr } : {}),
  });
  const started = Date.now();
  const result = await pump(recordedSkillRun(o), (ev) => printer.handle(ev));
  const model = printer.skillModel ?? o.skill.model ?? o.ctx.config.skillModel;
  printer.finish(result, o.usage, model, Date.now() - started);
  return result;
}

/**
 * A skill run's events, saved as a `run` session as they pass (its usage in the ledger, the run
 * budget checked before every call). `executeSkill` prints them; the REPL's `/run` draws them
 * like chat.
 */
export async function* recordedSkillRun(
  o: Omit<ExecuteOptions, 'format' | 'out' | 'err' | 'stdoutIsTTY' | 'stderrIsTTY' | 'stdout'>,
): AsyncGenerator<RunEvent, AgentResult> {
  const recording = recordSkillRun(sessionPlace(o.ctx), {
    skill: o.skill.name,
    values: o.values,
    model: o.model ?? o.skill.model ?? o.ctx.config.skillModel,
  });
  try {
    const rt = await createSkillRuntime(o.ctx, {
      catalog: o.catalog,
      prompter: o.prompter,
      mode: o.mode,
      signal: o.signal,
      ...(o.llm ? { llm: o.llm } : {}),
      ...(o.client ? { client: o.client } : {}),
      hooks: recording.hooks,
      ...(o.grants ? { grants: o.grants } : {}),
      write: (text) => (o.stderr ?? process.stderr).write(`${text}\n`),
    });
    if (o.folder) applyFolderFlags(rt, o.folder, o.ctx);
    rt.costGate = recording.budget;
    rt.assumeYes = o.ctx.args.flags.yes;
    const run = runSkill(
      {
        skill: o.skill,
        values: o.values,
        usage: o.usage,
        ...(o.model ? { model: o.model } : {}),
        ...(o.extraDocuments?.length ? { extraDocuments: o.extraDocuments } : {}),
        ...(o.task ? { task: o.task } : {}),
        ...(o.files?.length ? { files: o.files } : {}),
      },
      rt,
    );
    let step = await run.next();
    while (!step.done) {
      recording.consume(step.value);
      o.ctx.watchRun?.(step.value);
      yield step.value;
      step = await run.next();
    }
    return step.value;
  } finally {
    recording.finish();
  }
}

/** Folder-run flags onto the runtime: how many at once, which files, redo or not, Batch API. */
function applyFolderFlags(rt: SkillRuntime, f: FolderFlags, ctx: AppContext): void {
  const env = (name: string) => {
    const n = Number(ctx.env[name]);
    return ctx.env[name] && Number.isFinite(n) && n >= 0 ? n : undefined;
  };
  const retryBase = env('ZHI_RETRY_BASE_MS');
  const pollMs = env('ZHI_BATCH_POLL_MS');
  // Tests make the Batch API's per-file limits small (the declared ones are 100 MB, 50,000 lines).
  const maxBytes = env('ZHI_BATCH_MAX_BYTES');
  const maxLines = env('ZHI_BATCH_MAX_LINES');
  rt.folder = {
    jobs: f.jobs ?? defaultJobs(ctx.platform.id),
    force: f.force,
    batch: f.batch,
    dryRun: f.dryRun,
    wait: f.wait,
    // Tests shorten the client's backoff; the pool's pause after an overload follows it.
    ...(retryBase !== undefined ? { pauseMs: retryBase * 2 } : {}),
    ...(pollMs !== undefined ? { pollMs } : {}),
    ...(maxBytes || maxLines ? { batchLimits: { bytes: maxBytes, lines: maxLines } } : {}),
  };
  rt.selection = { recursive: f.recursive, include: f.include, exclude: f.exclude };
}
