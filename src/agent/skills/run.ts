import { basename, resolve } from 'node:path';
import type { ZhipuClient } from '../../llm/client.js';
import { findModel } from '../../llm/models.js';
import type { Platform } from '../../llm/platforms.js';
import type { LlmClient } from '../../llm/types.js';
import type { UsageTracker } from '../../llm/usage.js';
import type { SkillCatalog } from '../../skills/discovery.js';
import {
  checkPath,
  composeMessage,
  type DocumentBlock,
  filesIn,
  MESSAGE_BUDGET_BYTES,
  ocrBlock,
  type ReadDocumentFn,
  type ReadOptions,
  readInput,
  supportedExtensions,
} from '../../skills/documents.js';
import type { InputValues } from '../../skills/inputs.js';
import { referenceTool } from '../../skills/reference-tool.js';
import { resolveTools, skillClosure, skillModel } from '../../skills/resolve.js';
import { MAX_SKILL_DEPTH, type Skill } from '../../skills/schema.js';
import { ZhiError } from '../../support/errors.js';
import { truncateText } from '../../support/text.js';
import { displayPath } from '../../tools/paths.js';
import type { ToolRegistry } from '../../tools/registry.js';
import { ToolError } from '../../tools/types.js';
import type { AgentEvent, AgentResult } from '../events.js';
import { type AgentDeps, type Prompter, runAgent } from '../loop.js';
import type { PermissionMode } from '../permissions.js';
import { languagePreamble } from '../prompt.js';
import { makeSkillTool } from './skill-tool.js';
import { runPerFile, runStep } from './steps.js';

/** What every skill run of one command (or one /run) shares, nested runs included. */
export interface SkillRuntime {
  llm: LlmClient;
  client?: ZhipuClient | undefined;
  platform: Platform;
  catalog: SkillCatalog;
  prompter: Prompter;
  mode: PermissionMode;
  signal: AbortSignal;
  cwd: string;
  /** The output folder from config, environment or flag. */
  outputDir: string;
  /** True when the user chose the output folder on the command line (it beats the skill's own). */
  outputDirFixed: boolean;
  /** The configured skill model (`skill_model`). */
  skillModel: string;
  builtinTools: readonly string[];
  loadTools(names: readonly string[]): Promise<ToolRegistry>;
  readDocument: ReadDocumentFn;
  /**
   * OCR an input file up front (images, scanned PDFs) for skills that have the ocr tool; its
   * usage goes to `usage`. Without it, the model is told to call ocr itself.
   */
  ocr?(abs: string, o: { display: string; signal: AbortSignal; usage: UsageTracker }): Promise<string>;
  /** Before the first run of user skills that can write files or run commands: may they? */
  confirmTrust?(skills: Skill[]): Promise<boolean>;
  /** Needs trust: the skills of a run the user has not trusted yet. */
  untrusted?(skills: Skill[]): Skill[];
  /** Events of nested runs (composite steps, per-file steps), with the chain of skill names. */
  onNested?(ev: SkillEvent, chain: readonly string[]): void;
  /** Given to every agent loop of the run, nested ones too (session spill, run budget). */
  hooks?: Pick<AgentDeps, 'beforeCall' | 'spill'>;
  today?: string;
}

export interface SkillRunRequest {
  skill: Skill;
  values: InputValues;
  /** `--model`: replaces the skill's model (this skill only, not the skills it calls). */
  model?: string | undefined;
  /** Usage of this run is added here. */
  usage: UsageTracker;
  /** The skills above this one (empty for the skill the user ran). */
  chain?: string[];
  /** Instructions from the calling skill. */
  instructions?: string | undefined;
  /** Nested runs write where their caller writes. */
  outputDir?: string;
  /** Documents given another way (piped stdin). */
  extraDocuments?: { name: string; text: string }[];
  /** Internal: trust was already settled by the run that started this one. */
  trusted?: boolean;
  /**
   * Who chose the inputs: the person (command line, /run: any path they name) or the model
   * (a composite skill's nested call: paths must pass the one containment rule). Default person.
   */
  inputsFrom?: 'person' | 'model';
}

export type SkillEvent =
  | AgentEvent
  | { type: 'skill_start'; skill: string; model: string; depth: number }
  | { type: 'skill_step'; skill: string; index: number; total: number; label: string }
  | { type: 'skill_ocr'; skill: string; file: string };

/**
 * Run a skill: the one code path behind `zhi run`, `/run` and a composite skill's `skill_<name>`
 * tool. The run gets only the skill's tools, the skill's model (thinking off unless the skill
 * asks and the model can), the skill's prompt with the language rule, and its inputs read into
 * the first message. Setup problems (unknown tool, missing file, untrusted skill) throw a
 * ZhiError; the run itself ends in an AgentResult.
 */
export async function* runSkill(
  req: SkillRunRequest,
  rt: SkillRuntime,
): AsyncGenerator<SkillEvent, AgentResult> {
  const { skill } = req;
  const chain = req.chain ?? [];
  if (chain.includes(skill.name)) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'skills.err.cycle', params: { chain: [...chain, skill.name].join(' → ') } },
    });
  }
  if (chain.length >= MAX_SKILL_DEPTH) {
    throw new ZhiError({
      kind: 'usage',
      what: {
        key: 'skills.err.depth',
        params: { max: MAX_SKILL_DEPTH, chain: [...chain, skill.name].join(' → ') },
      },
    });
  }
  const tools = resolveTools(skill, rt.catalog, rt.builtinTools);
  const model = skillModel(skill, {
    override: req.model,
    configured: rt.skillModel,
    custom: rt.platform.id === 'custom',
  });
  if (!chain.length && !req.trusted) await settleTrust(skill, rt);
  const outputDir =
    req.outputDir ??
    (!rt.outputDirFixed && skill.output.directory ? resolve(rt.cwd, skill.output.directory) : rt.outputDir);

  // A folder given where the skill takes one file: run the skill once per file.
  for (const arg of skill.args) {
    const v = req.values[arg.name];
    if (arg.type !== 'file' || typeof v !== 'string') continue;
    const where = await checkPath(rt.cwd, v, arg, req.inputsFrom);
    if (where.kind === 'directory')
      return yield* runPerFile(runSkill, req, rt, arg.name, where.abs, tools.builtin.includes('ocr'));
  }

  yield { type: 'skill_start', skill: skill.name, model, depth: chain.length + 1 };
  const canOcr = tools.builtin.includes('ocr');
  const canRead = tools.builtin.includes('file_read');
  const budget = { left: MESSAGE_BUDGET_BYTES };
  const blocks = new Map<string, { summary: string; docs: DocumentBlock[] }>();
  const results = new Map<string, { file: string; text: string; ok: boolean }[]>();
  const pre: AgentResult = {
    text: '',
    stopReason: 'answer',
    turns: 0,
    toolCalls: 0,
    filesRead: 0,
    filesWritten: [],
  };
  const show = (abs: string) => displayPath(rt.cwd, abs);

  for (const arg of skill.args) {
    const v = req.values[arg.name];
    if ((arg.type !== 'file' && arg.type !== 'directory') || typeof v !== 'string' || !v) continue;
    const where = await checkPath(rt.cwd, v, arg, req.inputsFrom);
    const read: ReadOptions = { read: rt.readDocument, canOcr, canRead, signal: rt.signal, budget };
    if (where.kind === 'file') {
      const doc = yield* readOne(where.abs, show(where.abs), read, req, rt);
      if (doc.text !== undefined) pre.filesRead += 1;
      blocks.set(arg.name, { summary: `${doc.name} (${doc.note})`, docs: [doc] });
      continue;
    }
    const eachSkill = arg.each ? rt.catalog.skills.get(arg.each) : undefined;
    const files = await filesIn(
      where.abs,
      supportedExtensions(arg, canOcr || Boolean(eachSkill?.tools.includes('ocr'))),
      req.inputsFrom === 'model' ? rt.cwd : undefined,
    );
    if (!files.length) {
      throw new ZhiError({
        kind: 'usage',
        what: { key: 'skills.err.emptyFolder', params: { path: show(where.abs) } },
      });
    }
    if (eachSkill) {
      const list: { file: string; text: string; ok: boolean }[] = [];
      for (const [i, file] of files.entries()) {
        if (rt.signal.aborted) break;
        yield { type: 'skill_step', skill: skill.name, index: i, total: files.length, label: basename(file) };
        list.push({
          file: show(file),
          ...(yield* runStep(runSkill, eachSkill, file, req, rt, outputDir, pre)),
        });
      }
      // Keep the results within the message budget: each gets an equal share when they are long.
      const share = Math.max(4096, Math.floor(budget.left / Math.max(1, list.length)));
      for (const r of list) r.text = truncateText(r.text, share).text;
      budget.left -= list.reduce((n, r) => n + Buffer.byteLength(r.text, 'utf8'), 0);
      results.set(arg.name, list);
      continue;
    }
    const docs: DocumentBlock[] = [];
    for (const [i, file] of files.entries()) {
      if (files.length > 1)
        yield { type: 'skill_step', skill: skill.name, index: i, total: files.length, label: basename(file) };
      const doc = yield* readOne(file, show(file), read, req, rt);
      if (doc.text !== undefined) pre.filesRead += 1;
      docs.push(doc);
    }
    blocks.set(arg.name, { summary: `${show(where.abs)}/ (${files.length} files, in name order)`, docs });
  }
  if (rt.signal.aborted) return { ...pre, stopReason: 'aborted' };

  const registry = await rt.loadTools(tools.builtin);
  for (const target of tools.skills) {
    registry.register(makeSkillTool(target, { rt, chain: [...chain, skill.name], run: runSkill }));
  }
  if (skill.folder && skill.resources.length) registry.register(referenceTool(skill.folder, skill.resources));

  const system = skillSystemPrompt(skill, {
    outputDir: show(outputDir),
    today: rt.today ?? new Date().toISOString().slice(0, 10),
    writes: registry.has('file_write'),
  });
  const user = composeMessage({
    skill,
    values: req.values,
    blocks,
    results,
    ...(chain.length ? { caller: chain[chain.length - 1]! } : {}),
    ...(req.instructions ? { instructions: req.instructions } : {}),
    ...(req.extraDocuments ? { extraDocuments: req.extraDocuments } : {}),
  });
  const run = runAgent(
    [
      { role: 'system', content: system },
      { role: 'user', content: user },
    ],
    {
      llm: rt.llm,
      tools: registry,
      prompter: rt.prompter,
      usage: req.usage,
      cwd: rt.cwd,
      outputDir,
      ...(rt.client ? { client: rt.client } : {}),
      services: { skill: skill.name },
      ...rt.hooks,
    },
    {
      model,
      thinking: skill.thinking && Boolean(findModel(model)?.thinking),
      maxTurns: skill.maxTurns,
      mode: rt.mode,
      signal: rt.signal,
    },
  );
  let step = await run.next();
  while (!step.done) {
    yield step.value;
    step = await run.next();
  }
  const result = step.value;
  result.filesRead += pre.filesRead;
  result.filesWritten.unshift(...pre.filesWritten);
  return result;
}

/** One input file's block: its text, OCR'd up front when it is an image or a scan. */
async function* readOne(
  abs: string,
  name: string,
  o: ReadOptions,
  req: SkillRunRequest,
  rt: SkillRuntime,
): AsyncGenerator<SkillEvent, DocumentBlock> {
  const outcome = await readInput(abs, name, o);
  if ('block' in outcome) return outcome.block;
  if (!rt.ocr) return ocrBlock(name, outcome.ocr, undefined, o.budget);
  yield { type: 'skill_ocr', skill: req.skill.name, file: name };
  try {
    const text = await rt.ocr(abs, { display: name, signal: o.signal, usage: req.usage });
    return ocrBlock(name, outcome.ocr, text, o.budget);
  } catch (err) {
    if (err instanceof ZhiError || !(err instanceof ToolError)) throw err;
    throw new ZhiError({
      kind: 'io',
      what: { key: 'skills.err.ocrFailed', params: { path: name } },
      why: err.message,
      cause: err,
    });
  }
}

/** The system prompt of a skill run: the skill's own prompt, the language rule, the date, where files go. */
export function skillSystemPrompt(
  skill: Skill,
  o: { outputDir: string; today: string; writes: boolean },
): string {
  const lines = [
    skill.systemPrompt,
    '',
    languagePreamble(),
    "The labels in the user's message (Inputs, file names) are written by zhi in English: what counts is the language of the document and of the inputs' text (a Chinese document gets a Chinese answer), unless an input names the language to use.",
    `Today is ${o.today}.`,
  ];
  if (o.writes) {
    lines.push(
      `file_write saves new files in the output folder "${o.outputDir}": give it a plain file name such as "summary.md", never a folder or an absolute path. It never replaces an existing file; if a name is taken, pick another.`,
    );
  }
  if (skill.folder && skill.resources.length) {
    lines.push(
      `Reference files of this skill (read one with read_reference when you need it): ${skill.resources.join(', ')}.`,
    );
  }
  return lines.join('\n');
}

async function settleTrust(skill: Skill, rt: SkillRuntime): Promise<void> {
  if (!rt.untrusted) return;
  const pending = rt.untrusted(skillClosure(skill, rt.catalog, rt.builtinTools));
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
