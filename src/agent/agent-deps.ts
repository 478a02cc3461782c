/**
 * What the agent loop is given: its dependencies (the model, the tools, the person, the hooks
 * around each call) and the options of one run. Apart from loop.ts so the modules the loop uses
 * (tool-calls.ts) can name them without importing the loop.
 */
import type { Effort } from '../llm/models.js';
import type { LlmClient, Message, ToolCall } from '../llm/types.js';
import type { UsageTracker } from '../llm/usage.js';
import type { ZhiError } from '../support/errors.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { AnyTool, Assessment, Notice, Question, ToolContext } from '../tools/types.js';
import type { RunEvent } from './events.js';
import type { HookRunner } from './hook-events.js';
import type { PermissionMode, SessionGrants } from './permissions.js';

export interface ToolApproval {
  name: string;
  kind: AnyTool['kind'];
  args: unknown;
  /** The arguments as a person should read them. */
  preview: string;
  warning?: string | undefined;
  /** What the call can reach (the shell's sandbox): the last line before the question. */
  summary?: Assessment['summary'];
  /** Extra answers that widen this one call. */
  choices?: Assessment['choices'];
  /** The unfolded preview, when the preview was folded. */
  full?: string | undefined;
}

/** A person's answer: yes, no, or yes with the grants of the extra choices they picked. */
export type ApprovalAnswer = boolean | { grants: string[] };

/** How the loop reaches a person. A fake in tests; the terminal in the REPL; a "no" when piped. */
export interface Prompter {
  readonly interactive: boolean;
  confirmTool(req: ToolApproval, signal: AbortSignal): Promise<ApprovalAnswer>;
  ask(question: Question, signal: AbortSignal): Promise<boolean>;
}

export interface AgentDeps {
  llm: LlmClient;
  tools: ToolRegistry;
  prompter: Prompter;
  usage: UsageTracker;
  cwd: string;
  outputDir: string;
  clock?: () => number;
  /** Read-only folders for shell commands (skill folders), see ToolContext.extraReadable. */
  extraReadable?: readonly string[];
  named?: ToolContext['named'];
  /** What the person allowed this session, by kind (typed URLs, sites, commands, MCP tools "always"). */
  grants?: SessionGrants;
  /**
   * The person agreed in advance to the price of paid services a tool uses (GLM-OCR): `--yes`,
   * or a skill run (the run was the request). `--auto` agrees too (see ToolContext.priceAgreed).
   */
  priceAgreed?: boolean;
  /**
   * Checked before every call, before the tool's own assessment: a refusal stops the call (a
   * loaded skill's `allowed-tools` in chat). It can only refuse, never allow.
   */
  guard?: (name: string, args: unknown) => { reason: string; notice: Notice } | undefined;
  /** A tool result over the cap: may save the whole text and return what the model gets instead. */
  spill?: (call: ToolCall, content: string) => Promise<string | undefined>;
  /**
   * Runs before every model call with the messages about to be sent (compaction, budgets). It may
   * shrink `messages` in place, return notices to show (as warnings), or a reason to stop the run
   * (the run then ends with stopReason 'budget' and that error).
   */
  beforeCall?: (messages: Message[], signal: AbortSignal) => Promise<BeforeCallOutcome | undefined>;
  /** Before a tool writes a file (see ToolContext.beforeWrite): a folder run records it first. */
  beforeWrite?: ToolContext['beforeWrite'];
  /** The person's hooks (config.yaml `hooks:`, run by the CLI): a before_tool one may stop a call. */
  runHook?: HookRunner;
  /** A context-window overflow: shrink the messages in place and return true to retry once. */
  onContextOverflow?: (messages: Message[], signal: AbortSignal) => Promise<boolean>;
}

export interface BeforeCallOutcome {
  notices?: string[];
  /** Events of the work the hook did (a compaction summary's usage), passed on into the stream. */
  events?: RunEvent[];
  stop?: ZhiError;
}

export interface AgentOptions {
  model: string;
  thinking: boolean;
  /** Thinking effort, sent as `reasoning_effort` where the model takes it. */
  effort?: Effort;
  maxTurns: number;
  mode: PermissionMode;
  signal?: AbortSignal;
  maxResultBytes?: number;
  maxTokens?: number;
  /**
   * A skill whose written file is its answer (`output.answer: file`): when every call of a turn
   * is a file_write that wrote its file, the run ends with the answer this returns from the calls'
   * arguments (undefined: the model goes on and answers itself).
   */
  answerFromWrite?: (args: Record<string, unknown>[]) => string | undefined;
}
