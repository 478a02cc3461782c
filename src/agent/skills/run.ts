import { resolve } from 'node:path';
import { findModel } from '../../llm/models.js';
import type { Message } from '../../llm/types.js';
import { checkPath } from '../../skills/documents.js';
import { withoutInput } from '../../skills/inputs.js';
import { referenceTool } from '../../skills/reference-tool.js';
import { resolveTools, skillClosure, skillModel } from '../../skills/resolve.js';
import type { Skill } from '../../skills/schema.js';
import { insertAll } from '../../support/arrays.js';
import { ZhiError } from '../../support/errors.js';
import { t } from '../../support/i18n/index.js';
import { FILE_WRITE_TOOL, OCR_TOOL, SHELL_TOOL } from '../../tools/index.js';
import { displayPath } from '../../tools/paths.js';
import type { ToolRegistry } from '../../tools/registry.js';
import { namedFrom } from '../../tools/scope.js';
import { scopedShell } from '../../tools/shell/scope.js';
import { type AgentResult, emptyResult, type RunEvent } from '../events.js';
import { type AgentDeps, type AgentOptions, type Prompter, runAgent } from '../loop.js';
import { grantTyped } from '../permissions.js';
import { chainProblem } from './chain.js';
import { dryRunEach } from './dry-run-each.js';
import { gatherInputs } from './gather.js';
import { mapLongDocument, type WholeResult, wholeAnswer, withWholeResult } from './long-doc.js';
import { keepPromise, writtenAnswer } from './promised-file.js';
import { firstMessage, skillPrompt } from './skill-prompt.js';
import { makeSkillTool } from './skill-tool.js';
import { runPerFile } from './steps.js';
import type { SkillPlan, SkillRunRequest, SkillRuntime } from './types.js';

/**
 * Run a skill: the one code path behind `zhi run`, `/run` and a composite skill's `skill_<name>`
 * tool. The run gets only the skill's tools, the skill's model (thinking off unless the skill
 * asks and the model can), the skill's prompt with the language rule, and its inputs read into
 * the first message. Its events end with `done`. Setup problems (unknown tool, missing file,
 * untrusted skill, a cycle) throw a ZhiError; the run itself ends in an AgentResult.
 */
export async function* runSkill(
  req: SkillRunRequest,
  rt: SkillRuntime,
): AsyncGenerator<RunEvent, AgentResult> {
  const result = yield* runPlanned(req, rt, await planSkill(req, rt));
  yield { type: 'done', result };
  return result;
}

/** Check the chain, resolve tools and model, settle trust, and pick the output folder. */
export async function planSkill(req: SkillRunRequest, rt: SkillRuntime): Promise<SkillPlan> {
  const { skill } = req;
  const chain = req.chain ?? [];
  const problem = chainProblem(chain, skill);
  if (problem) throw problem;
  const tools = resolveTools(skill, rt.catalog, rt.builtinTools);
  let warning: string | undefined;
  const model = skillModel(skill, {
    override: req.model,
    configured: rt.skillModel,
    custom: rt.platform.id === 'custom',
    onFallback: (asked, used) => {
      warning = t('skills.warn.modelFallback', { skill: skill.name, model: asked, fallback: used });
    },
  });
  if (!chain.length && !req.trusted) await settleTrust(skill, rt);
  // URLs in the inputs the person gave may be fetched without a question.
  if (req.inputsFrom !== 'model' && rt.grants) {
    for (const v of Object.values(req.values)) if (typeof v === 'string') grantTyped(rt.grants, v);
    if (req.task) grantTyped(rt.grants, req.task);
  }
  const outputDir = req.outputDir ?? rt.outputFolder(skill.output.directory);
  return { tools, model, outputDir, chain: [...chain, skill.name], ...(warning ? { warning } : {}) };
}

async function* runPlanned(
  req: SkillRunRequest,
  rt: SkillRuntime,
  plan: SkillPlan,
): AsyncGenerator<RunEvent, AgentResult> {
  const canOcr = plan.tools.builtin.includes(OCR_TOOL.name);
  // A folder given where the skill takes one file: run the skill once per file.
  for (const arg of req.skill.args) {
    const v = req.values[arg.name];
    if (arg.type !== 'file' || typeof v !== 'string') continue;
    const where = await checkPath(rt.cwd, v, arg, req.inputsFrom);
    // `--dry-run` takes this path for one file too: it only says what would be done.
    if (where.kind === 'directory' || (rt.folder?.dryRun && !req.chain?.length))
      return yield* runPerFile(runSkill, req, rt, arg.name, where.abs, canOcr, where.kind);
  }
  const dry = await dryRunEach(runSkill, req, rt, plan); // `--dry-run` of a composite: nothing is sent
  if (dry) return dry;
  if (plan.warning) yield { type: 'warning', message: plan.warning };
  yield { type: 'skill_start', skill: req.skill.name, model: plan.model, depth: plan.chain.length };
  // A document longer than one message: its parts first (map), the skill's run then combines them.
  const long = yield* mapLongDocument(req, rt, plan);
  const inputs = yield* gatherInputs(
    long ? { ...req, values: withoutInput(req.values, long.argName) } : req,
    rt,
    plan,
    runSkill,
  );
  if (long) {
    inputs.filesRead += 1;
    inputs.blocks.set(long.argName, {
      summary: `${long.name} (${long.note})`,
      docs: [{ name: long.name, text: long.text, note: long.note }],
    });
  }
  const before = { filesRead: inputs.filesRead, filesWritten: inputs.filesWritten };
  if (rt.signal.aborted) return { ...emptyResult(), ...before, stopReason: 'aborted' };
  const own = await skillTools(req.skill, rt, plan);
  const registry = long?.whole !== undefined ? withWholeResult(own.registry, long.whole) : own.registry;
  const messages: Message[] = [
    { role: 'system', content: skillPrompt(req, rt, plan, registry) },
    { role: 'user', content: firstMessage(req, inputs) },
  ];
  // The documents are in the first message now: their texts are let go (a --batch round holds
  // thousands of runs waiting at once).
  inputs.blocks.clear();
  const { deps, opts, fileAnswer } = loopOf(req, rt, plan, registry, long?.whole);
  const result = yield* runAgentThenStop(own.stop, () =>
    // A folder run's file is done only when written: one reminder when the model answered without it.
    fileAnswer && req.mustWrite
      ? keepPromise(messages, (maxTurns) =>
          runAgent(messages, deps, { ...opts, ...(maxTurns ? { maxTurns } : {}) }),
        )
      : runAgent(messages, deps, opts),
  );
  result.filesRead += before.filesRead;
  insertAll(result.filesWritten, 0, before.filesWritten);
  // A long document joined in parts: the answer is the whole result, as a short document's would be.
  const written = result.filesWritten.map((f) => displayPath(rt.cwd, f.path));
  if (long?.whole !== undefined && result.stopReason === 'answer')
    result.text = wholeAnswer(long.whole, written);
  // Part results are kept for a run that fails, or whose whole result, too long to be the answer, was not written.
  const lost = long?.whole !== undefined && long.whole.text === undefined && !written.length;
  if (result.stopReason === 'answer' && !lost)
    for (const store of [...(long ? [long.store] : []), ...inputs.stores])
      await store.discard().catch(() => {});
  return result;
}

/** The loop of a skill run: its dependencies, its options, and whether its file is its answer. */
function loopOf(
  req: SkillRunRequest,
  rt: SkillRuntime,
  plan: SkillPlan,
  registry: ToolRegistry,
  whole: WholeResult | undefined,
): { deps: AgentDeps; opts: AgentOptions; fileAnswer: boolean } {
  const deps: AgentDeps = {
    llm: rt.llm,
    tools: registry,
    prompter: rt.prompter,
    usage: req.usage,
    cwd: rt.cwd,
    outputDir: plan.outputDir,
    // The skill's scripts run through the sandboxed shell with its folder readable.
    ...(req.skill.folder ? { extraReadable: [req.skill.folder] } : {}),
    ...(rt.grants ? { grants: rt.grants } : {}),
    named: namedFrom(req.inputsFrom === 'model' ? [] : [...Object.values(req.values), req.task]),
    // A skill run is the person's request for its work: its inputs' OCR is paid with it unasked
    // (gather.ts), and so is an ocr call its model makes (a folder run has nobody to ask).
    priceAgreed: true,
    ...rt.hooks,
  };
  const fileAnswer = req.skill.answerIsFile === true && registry.has(FILE_WRITE_TOOL.name);
  const opts: AgentOptions = {
    model: plan.model,
    thinking: req.skill.thinking && Boolean(findModel(plan.model)?.thinking),
    // Routine work: the lowest effort where the model takes one (GLM-5.3 defaults to max).
    effort: 'low',
    maxTurns: req.skill.maxTurns,
    mode: rt.mode,
    signal: rt.signal,
    ...(fileAnswer
      ? {
          answerFromWrite: (args) =>
            writtenAnswer(args, whole, (p) => displayPath(rt.cwd, resolve(plan.outputDir, p))),
        }
      : {}),
  };
  return { deps, opts, fileAnswer };
}

/**
 * The skill's own tools: the built-ins it names (the shell limited to the programs of
 * `allowed-tools: Bash(python3:*)`), the skills it calls, its bundled files.
 */
async function skillTools(
  skill: Skill,
  rt: SkillRuntime,
  plan: SkillPlan,
): Promise<{ registry: ToolRegistry; stop: () => Promise<void> }> {
  let registry = await rt.loadTools(plan.tools.builtin);
  const mcp = plan.tools.mcp.length ? await startMcpTools(skill, rt, plan.tools.mcp, registry) : undefined;
  const shell = registry.get(SHELL_TOOL.name);
  if (shell && skill.shellScopes?.length) {
    registry = registry.filter(registry.names().filter((n) => n !== SHELL_TOOL.name));
    registry.register(scopedShell(shell, skill.shellScopes));
  }
  for (const target of plan.tools.skills) {
    registry.register(makeSkillTool(target, { rt, chain: plan.chain, run: runSkill }));
  }
  if (skill.folder && skill.resources.length) registry.register(referenceTool(skill.folder, skill.resources));
  return { registry, stop: async () => mcp?.close() };
}

/**
 * Start the MCP servers a skill names, their tools joining `registry`; a server that is not
 * configured or not running is an error. The caller stops them when the run ends.
 */
async function startMcpTools(
  skill: Skill,
  rt: SkillRuntime,
  names: string[],
  registry: ToolRegistry,
): Promise<{ close(): Promise<void> }> {
  const missing = names.find((n) => !rt.mcpServers?.[n]);
  if (missing) {
    throw new ZhiError({
      kind: 'config',
      what: { key: 'mcp.err.skillServer', params: { skill: skill.name, name: missing } },
      tries: [{ key: 'mcp.try.list' }],
    });
  }
  const { McpManager } = await import('../../tools/mcp/manager.js');
  const picked = Object.fromEntries(names.map((n) => [n, rt.mcpServers![n]!]));
  // Images its tools return are described by the default vision model.
  const manager = new McpManager(picked, rt.cwd, registry, {
    client: rt.client,
    ...(rt.mcpOauthFile ? { oauthFile: rt.mcpOauthFile } : {}),
  });
  const failed = await manager.start();
  if (failed.length) {
    await manager.close();
    throw new ZhiError({
      kind: 'config',
      what: { key: 'mcp.err.skillStart', params: { problem: failed[0]! } },
    });
  }
  return manager;
}

/** Run the loop, then stop the MCP servers the run started (also when it fails). */
async function* runAgentThenStop(
  stop: () => Promise<void>,
  loop: () => AsyncGenerator<RunEvent, AgentResult>,
): AsyncGenerator<RunEvent, AgentResult> {
  try {
    return yield* loop();
  } finally {
    await stop();
  }
}

async function settleTrust(skill: Skill, rt: SkillRuntime): Promise<void> {
  if (!rt.untrusted) return;
  const pending = await rt.untrusted(skillClosure(skill, rt.catalog, rt.builtinTools));
  if (!pending.length) return;
  if (rt.confirmTrust && (await rt.confirmTrust(pending))) return;
  const names = pending.map((s) => s.name).join(', ');
  throw new ZhiError({
    kind: 'config',
    what: { key: 'skills.trust.refused', params: { names } },
    why: { key: rt.prompter.interactive ? 'skills.trust.declined' : 'skills.trust.noTerminal' },
    tries: [
      { key: 'skills.trust.tryTerminal', params: { name: skill.name } },
      { key: 'skills.trust.tryCommand', params: { name: pending[0]!.name } },
    ],
  });
}

/** Questions of parallel nested runs are asked one at a time. */
export function serialPrompter(p: Prompter): Prompter {
  let chain: Promise<unknown> = Promise.resolve();
  const queue = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = chain.then(fn, fn);
    chain = next.catch(() => undefined);
    return next;
  };
  return {
    interactive: p.interactive,
    confirmTool: (req, signal) => queue(() => p.confirmTool(req, signal)),
    ask: (q, signal) => queue(() => p.ask(q, signal)),
  };
}
