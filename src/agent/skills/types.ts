/**
 * What a skill run is given, by concept: the models it calls, the readers of its inputs (with
 * their prices), the person it works for, the place it works in, the skills and tools it may use,
 * and how folder runs go. The object cli/ builds is all of them (`SkillRuntime`); each module of
 * agent/skills asks only for the ones it uses. Types only: every module of the area may import
 * this one, and it imports none of them (no cycle, type imports counted).
 */
import type { Cost } from '../../llm/models.js';
import type { Platform } from '../../llm/platforms.js';
import type { LlmClient, PlatformClient, Usage } from '../../llm/types.js';
import type { UsageTracker } from '../../llm/usage.js';
import type { SkillCatalog } from '../../skills/discovery.js';
import type { DocumentBlock, ReadDocumentFn } from '../../skills/documents.js';
import type { FolderSelection } from '../../skills/folder.js';
import type { InputValues } from '../../skills/inputs.js';
import type { StepResult } from '../../skills/message.js';
import type { SkillTools } from '../../skills/resolve.js';
import type { Skill } from '../../skills/schema.js';
import type { ZhiError } from '../../support/errors.js';
import type { McpServerConfig } from '../../support/mcp-config.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { WrittenFile } from '../../tools/types.js';
import type { CostGate } from '../budget.js';
import type { AgentResult, RunEvent } from '../events.js';
import type { CallGate } from '../folder/call-gate.js';
import type { FolderOptions } from '../folder/folder-options.js';
import type { AgentDeps, Prompter } from '../loop.js';
import type { PermissionMode, SessionGrants } from '../permissions.js';
import type { PartStore } from './part-store.js';

/** The models: the client calls go through, the platform that prices them, the skill model. */
export interface ModelAccess {
  llm: LlmClient;
  client?: PlatformClient | undefined;
  platform: Platform;
  /** The configured skill model (`skill_model`). */
  skillModel: string;
  /**
   * The run's one concurrency budget for model calls (files, long documents' parts, `each:`
   * steps), set by the folder run or composite that started it; `llm` already passes through it.
   */
  calls?: CallGate;
}

/** The readers of a run's inputs; those that cost money ask for the price to be agreed first. */
export interface Readers {
  readDocument: ReadDocumentFn;
  /**
   * OCR an input file up front (images, scanned PDFs) for skills that have the ocr tool; the run
   * counts and reports its usage. Without it, the model is told to call ocr itself.
   */
  ocr?(
    abs: string,
    o: { display: string; signal: AbortSignal },
  ): Promise<{ markdown: string; model: string; usage: Usage }>;
  /**
   * Transcribe an audio input with GLM-ASR, after the price is shown and agreed (a person's yes,
   * --yes or --auto); undefined where no platform client is available.
   */
  transcribe?(
    abs: string,
    o: { display: string; signal: AbortSignal; skill: string },
  ): Promise<{ text: string; seconds: number; model: string; cost: Cost | undefined }>;
  /**
   * Read a file nothing here can read with Zhipu's file parser, after the price is shown and
   * agreed; undefined where no platform client is available.
   */
  parseFile?(
    abs: string,
    o: { display: string; signal: AbortSignal },
  ): Promise<{ text: string; model: string; cost: Cost | undefined }>;
}

/** The person the run works for: who is asked, what goes ahead unasked, when to stop. */
export interface Person {
  prompter: Prompter;
  mode: PermissionMode;
  signal: AbortSignal;
  /** Before the first run of user skills that can write files or run commands: may they? */
  confirmTrust?(skills: Skill[]): Promise<boolean>;
  /** Needs trust: the skills of a run the user has not trusted yet. */
  untrusted?(skills: Skill[]): Promise<Skill[]>;
  /** `max_cost_per_run`, for a long document's estimate before its parts are sent. */
  costGate?: CostGate | undefined;
  /** `--yes`: an estimate above `max_cost_per_run` goes ahead without a question. */
  assumeYes?: boolean;
}

/** The place the run works in: its folder, where it writes, its rules, the addresses vouched for. */
export interface Place {
  cwd: string;
  /** The house rules of this folder as they join a system prompt (agent/instructions.ts), if any. */
  houseRules?: string;
  /** Where a skill writes, given its own `output.directory` (the one outputFolder decision). */
  outputFolder(skillDir: string | undefined): string;
  /** What the person allowed, by kind (their inputs' URLs, domains allowed "always"…). */
  grants?: SessionGrants;
  today?: string;
}

/** The skills and tools a run may use, and what every agent loop of it is given. */
export interface Toolbox {
  catalog: SkillCatalog;
  builtinTools: readonly string[];
  loadTools(names: readonly string[]): Promise<ToolRegistry>;
  /** Given to every agent loop of the run, nested ones too (session spill, run budget). */
  hooks?: Pick<AgentDeps, 'beforeCall' | 'spill' | 'beforeWrite'>;
  /** The configured MCP servers, for skills that use one (`tools: [mcp:<server>]`). */
  mcpServers?: Record<string, McpServerConfig>;
  /** Where OAuth sign-ins to MCP servers are kept (`zhi mcp login`). */
  mcpOauthFile?: string;
}

/** How folder runs go, and which files of a folder count. */
export interface FolderSettings {
  /** How folder runs go (`--jobs`, `--force`, `--batch`…); defaults otherwise. */
  folder?: Partial<FolderOptions>;
  /** Which files of a folder input count (`--recursive`, `--include`, `--exclude`). */
  selection?: Omit<FolderSelection, 'extensions'>;
}

/** What every skill run of one command (or one /run) shares, nested runs included: all of the above. */
export interface SkillRuntime extends ModelAccess, Readers, Person, Place, Toolbox, FolderSettings {}

/** runSkill, passed in: the modules it uses start skill runs themselves (folder files, steps, nested skills). */
export type RunFn = (req: SkillRunRequest, rt: SkillRuntime) => AsyncGenerator<RunEvent, AgentResult>;

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
  /** A skill without declared inputs: the person's task in their own words… */
  task?: string | undefined;
  /** …and the files they named (paths as typed, relative to the current directory). */
  files?: string[];
  /** Internal: trust was already settled by the run that started this one. */
  trusted?: boolean;
  /** A folder run's file: its skill's promised file must be written (reminded once, else an error). */
  mustWrite?: boolean;
  /**
   * Who chose the inputs: the person (command line, /run: any path they name) or the model
   * (a composite skill's nested call: paths must pass the one containment rule). Default person.
   */
  inputsFrom?: 'person' | 'model';
}

/** What is decided before a skill's loop starts: its tools, its model, its output folder. */
export interface SkillPlan {
  tools: SkillTools;
  model: string;
  outputDir: string;
  /** The skills above this one, and this one. */
  chain: string[];
  /** Said before the run starts (a model the skill asks for that zhi does not know). */
  warning?: string;
}

/** What the inputs became: blocks for the first message, per-file results, and what was read and written. */
export interface GatheredInputs {
  blocks: Map<string, { summary: string; docs: DocumentBlock[] }>;
  results: Map<string, StepResult[]>;
  /** Files named in a free-form task (a skill without declared inputs). */
  files: DocumentBlock[];
  filesRead: number;
  filesWritten: { path: string; bytes: number }[];
  /** Where per-file results combined in rounds are kept: discarded once the run has answered. */
  stores: PartStore[];
}

/** What one per-file step gave: its text for the caller's message, and what it read and wrote. */
export interface StepOutcome {
  text: string;
  ok: boolean;
  filesRead: number;
  filesWritten: WrittenFile[];
  /** Why the step failed, when it did (a 1302 is tried again, a 1113 stops the other steps). */
  error?: ZhiError;
  /** What its model calls cost (for the run record). */
  cost?: number;
}
