import type { z } from 'zod';
import type { PlatformClient, Usage } from '../llm/types.js';
import type { UsageTracker } from '../llm/usage.js';
import type { MessageKey, Params } from '../support/i18n/index.js';
import { log } from '../support/log.js';

/**
 * read: never changes anything · risky: creates something (asks in approve mode) · shell: always
 * asks · mcp: a tool of an MCP server (asks every time) · mcp-auto: of a server trusted `auto`
 * (asks in approve mode, runs in auto mode, also without a terminal). A server trusted `read` gives
 * `read` tools.
 */
export type ToolKind = 'read' | 'risky' | 'shell' | 'mcp' | 'mcp-auto';

/**
 * When the model is sent a tool's schema:
 * - `always`: with every request;
 * - `on-search`: once tool_search found it (or the model called it by name), from then on: an MCP
 *   server's tools, when there are more than a request should carry;
 * - `{ search }`: in a conversation, like `on-search`, and `search` names it in tool_search's
 *   description (for the model, English): a built-in most conversations never need;
 * - `{ when }`: in a conversation, only once the person's messages (joined) call for it.
 * A skill run, which named the tools it needs, is sent the last two with every request.
 */
export type Offer = 'always' | 'on-search' | { search: string } | { when(userText: string): boolean };

/**
 * A tool's facts, in one object: declared once, in its folder (the tool table's entry, whose
 * object the loaded tool shares), so every question about the tool is answered from here. Code
 * outside tools/ asks `traitsOf(name)` (tools/index.ts), or `traitsOfTool(tool)` for a loaded
 * tool, and never keeps its own list of tool names. A trait left out has its default: off,
 * offered `always`, the loop's result limit.
 */
export interface ToolTraits {
  /**
   * It changes things on the computer (writes files, runs commands): a user's skill that lists
   * it must be trusted before its first run, and the trust question names it with this phrase.
   */
  trust?: MessageKey;
  /** Every call waits for a person's answer, so it cannot run inside a Batch API job. */
  needsPerson?: boolean;
  /** Its calls write the run's output files (a skill run's result is what it wrote). */
  writesOutput?: boolean;
  /** When the model is sent its schema (see Offer). Default: `always`. */
  offer?: Offer;
  /** An Agent Skill (SKILL.md) that names no tools gets it: the safe file work every skill needs. */
  skillDefault?: boolean;
  /**
   * A lasting `tool:` rule may not allow it whole (`allow:` in config): it has a narrower rule of
   * its own (a shell command prefix).
   */
  ownAllowRule?: boolean;
  /** What it does, in the person's words (`write a file`, `写入文件`): approvals, lists of tools. */
  action?: MessageKey;
  /** The same as a short verb for the tool line, before what the call works on (`Write`, `写入`). */
  verb?: MessageKey;
  /** What a call printed is the person's to see too (a command's output, under the tool line). */
  showsOutput?: boolean;
  /** A successful call reads one file (counted in the run's "files read"). */
  readsFile?: boolean;
  /**
   * Calling it again with the same arguments gives the same result at no cost (file_read): a
   * large result of an earlier turn is then left out of later requests, with a note saying how
   * to get it again (agent/elide.ts).
   */
  repeatable?: boolean;
  /**
   * The largest result the model gets from this tool, when the tool has its own limit (file_read
   * and shell promise 100 KB). Default: the loop's 50 KB.
   */
  maxResultBytes?: number;
}

/** The traits of a tool that declares none: every default. */
const NO_TRAITS: ToolTraits = Object.freeze({});

/** A loaded tool's traits (its own object; every default when it declares none). */
export function traitsOfTool(tool: AnyTool): ToolTraits {
  return tool.traits ?? NO_TRAITS;
}

/** How the model is offered a tool (its `offer` trait, `always` when it says nothing). */
export function offerOf(traits: ToolTraits): Offer {
  return traits.offer ?? 'always';
}

/**
 * `shell_sandbox`: `off` runs commands without the OS sandbox even where there is one;
 * `restricted` is `auto` plus, on Windows, a restricted token that may write only in the output
 * folder (not verified on a real Windows yet, so not the default).
 */
export type SandboxMode = 'auto' | 'off' | 'restricted';

/** The shell tool's settings, decided once at start from config (`shell_sandbox`, `shell_env`). */
export interface ShellSettings {
  sandbox: SandboxMode;
  /** Environment names a command gets on top of the allow-list (tools/shell/env.ts). */
  envNames: readonly string[];
}

/** What the built-in tools are built with: each takes only the part it needs. */
export interface ToolDeps {
  client: PlatformClient;
  /** Left out (tests, a tool table without a shell): the sandbox where there is one, no extra names. */
  shell?: ShellSettings;
}

/** A tool in the tool table: its name and traits, known at start-up; its code, loaded on first use. */
export interface ToolEntry {
  name: string;
  traits: ToolTraits;
  load(deps: ToolDeps): Promise<AnyTool>;
}

export interface WrittenFile {
  path: string;
  bytes: number;
}

/** A file about to be written: where (absolute, under the output folder's real path) and what. */
export interface PlannedWrite {
  abs: string;
  sha256: string;
  bytes: number;
}

/** A question for a person (overwrite a file, trust a skill). Resolves false when no one can answer. */
export interface Question {
  message: string;
  detail?: string;
  danger?: boolean;
}

export interface ToolContext {
  /** Reads stay inside this folder (the current directory). */
  cwd: string;
  /** Writes go only under this folder (absolute). */
  outputDir: string;
  signal: AbortSignal;
  /** Ask a person a yes/no question; false when nobody can be asked. */
  ask(question: Question): Promise<boolean>;
  /** True when a person is there to answer. */
  interactive: boolean;
  /**
   * The price of a paid service a tool uses (GLM-OCR) was agreed in advance (`--yes`, `--auto`, a
   * skill run): say it and go on. Otherwise the tool asks, and with nobody to ask sends nothing
   * (the one price rule of the CLI's price consent, which the REPL's own questions follow too).
   */
  priceAgreed?: boolean;
  /** Report a file the tool created (counted in totals, listed in JSON output). */
  recordFile(file: WrittenFile): void;
  /**
   * A file is about to be created (or replaced) with these bytes. A folder run records it first,
   * so that after a kill at any point it knows which files it left and can recognise them.
   */
  beforeWrite?(file: PlannedWrite): Promise<void>;
  /** A short progress note while a slow tool works (OCR, a long shell command). */
  progress(note: string): void;
  /** Usage of nested runs (skills as tools) is merged here. */
  usage: UsageTracker;
  /** A model call the tool made itself (OCR): counted in the run's usage and reported in its stream. */
  reportUsage(model: string, usage: Usage): void;
  /**
   * An event of a run this tool started (a composite skill's step), passed into the run's event
   * stream as is. Its type is the agent's RunEvent, which this layer does not know.
   */
  emit(event: { readonly type: string }): void;
  /**
   * May this address be reached with no question (the egress rule: the person typed it, or
   * allowed its site, and it carries no data the model composed)? web_fetch asks it before
   * following a redirect to another site. Absent: no.
   */
  mayReach?(url: string): boolean;
  /** What the person granted beyond a plain yes (the keys of the choices they picked). */
  granted?: readonly string[];
  /**
   * Folders commands may read besides the usual ones (the folders of Agent Skills, whose scripts
   * run through the shell); they stay read-only.
   */
  extraReadable?: readonly string[];
  /**
   * The paths the person named (in a message, as a skill input): hidden files, VCS internals and
   * state files among them may be read (tools/scope.ts). Absent: none may.
   */
  named?: PathsNamed;
}

/** The paths a person named this session (NamedPaths in tools/scope.ts keeps them). */
export interface PathsNamed {
  /** Every path-like word of a text the person typed. */
  addText(text: string): void;
  add(path: string): void;
  /** Whether the person named this path (as shown, or resolved). */
  has(display: string, abs?: string): boolean;
}

export interface ToolResult {
  content: string;
  isError?: boolean;
  /** Lines for the person under the tool line (a search's sources). Sanitized when shown. */
  display?: string[];
}

/** What a tool says about a call before anyone is asked (shell safety, for example). */
export interface Assessment {
  /** Refused outright: never run, never asked. The reason goes to the model and the user. */
  refuse?: string;
  /** Shown in red before the question. */
  warning?: string;
  /** One line on what the call can reach (the shell's sandbox), shown last before the question. */
  summary?: { text: string; risky: boolean };
  /** Answers besides yes and no, each widening what this one call may do. */
  choices?: ApprovalChoice[];
  /**
   * Ask a person even where the tool's kind would let the call run unasked (`--auto`), and so
   * never by a lasting rule either: run_script where there is no sandbox.
   */
  asks?: boolean;
  /**
   * Lines shown under the call, before the warning: what the call will run that its arguments do
   * not say (the content of a skill's bundled script the shell runs).
   */
  shows?: string[];
  /** The whole preview when `preview` is folded (a long command): shown when the person asks. */
  full?: string;
  /**
   * A standing approval this call may be given: "always allow <label> this session". A later
   * call with the same key runs without a question (while a person is there to have said so).
   * The shell offers it for a command prefix the policy has no warning about; MCP tools per tool.
   */
  standing?: {
    key: string;
    label: string;
    /** An MCP tool's server and its own name, for the person's lasting rules (`allow: - mcp:`). */
    mcp?: { server: string; tool: string };
  };
}

/** The grant of the "always" answer of a standing approval (see Assessment.standing). */
export const ALWAYS_STANDING = 'always-standing';

/** The grant of web_fetch's "always for this domain" answer (kept for the session by the loop). */
export const ALWAYS_SITE = 'always-site';

/** An extra answer to an approval: a key the person types, what it means, and the grant it gives. */
export interface ApprovalChoice {
  key: string;
  label: string;
  grant: string;
}

export interface Tool<S extends z.ZodType = z.ZodType> {
  name: string;
  /** The model reads this: say what the tool does, its limits and the shape of its arguments. */
  description: string;
  schema: S;
  kind: ToolKind;
  execute(args: z.infer<S>, ctx: ToolContext): Promise<string | ToolResult>;
  /**
   * The JSON Schema sent to the model instead of one made from `schema` (tools described by
   * someone else, such as an MCP server; `schema` then only checks that the arguments are an object).
   */
  parameters?: Record<string, unknown>;
  /** A short label for progress lines, e.g. the file name. */
  label?(args: z.infer<S>): string;
  assess?(args: z.infer<S>, ctx: ToolContext): Assessment | Promise<Assessment>;
  /**
   * What a call sends off this computer (web_fetch's address, web_search's query, an MCP tool's
   * arguments, a file OCR uploads). The egress rule (agent/egress.ts) decides from these whether
   * the person must say yes, in every mode, and refuses any that carries a secret.
   */
  egress?(args: z.infer<S>): Outbound[];
  /** How the argument should be shown in a permission prompt (long contents summarised). */
  preview?(args: z.infer<S>, ctx?: ToolContext): string;
  /** Its facts: the same object as its entry's in the tool table (ToolEntry.traits). Absent: none. */
  traits?: ToolTraits;
}

// biome-ignore lint/suspicious/noExplicitAny: a registry holds tools of every argument shape
export type AnyTool = Tool<any>;

/**
 * One thing a call sends off this computer:
 * - `url`: a web address requested (what is in it is what leaves);
 * - `query`: words sent to a service (web_search);
 * - `args`: a tool's arguments sent to an MCP server (`trusted`: its config says `egress: true`);
 * - `upload`: a file sent to a service (OCR), by its path as the call gives it.
 */
export type Outbound =
  | { kind: 'url'; url: string }
  | { kind: 'query'; text: string; to: string }
  | { kind: 'args'; text: string; to: string; trusted: boolean }
  | { kind: 'upload'; path: string; to: string };

/** A failure the model should read and can recover from. Its message is the tool result. */
export class ToolError extends Error {
  /**
   * @param message English, for the model: what happened and what to do instead.
   * @param notice  For the person, from the catalogue (shown as a warning in their language):
   *                set it for refusals a person must know about (a secret, a path outside).
   */
  constructor(
    message: string,
    readonly notice?: Notice,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

/**
 * Why a tool failed, for the person: its notice, or a catalogue sentence saying the reason was
 * written for the model (its English goes to the log, never to the screen).
 */
export function reasonForPerson(err: ToolError): Notice {
  if (err.notice) return err.notice;
  log().warn('tool failure, as told to the model', { reason: err.message });
  return { key: 'cli.why.forModel' };
}

/** A catalogue message with its parameters (parameters that came from the model are sanitized when shown). */
export interface Notice {
  key: MessageKey;
  params?: Params;
}
