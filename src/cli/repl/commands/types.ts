import type { ChatSession } from '../../../agent/chat.js';
import type { AgentResult, RunEvent } from '../../../agent/events.js';
import type { SessionSummary } from '../../../agent/sessions/store.js';
import type { PlatformClient } from '../../../llm/types.js';
import type { UsageTracker } from '../../../llm/usage.js';
import type { SkillCatalog } from '../../../skills/discovery.js';
import type { MessageKey } from '../../../support/i18n/index.js';
import type { AppContext } from '../../context.js';
import type { ChatMcp } from '../../mcp/chat.js';

/**
 * What a slash command can reach. The REPL builds one per session; commands never touch
 * process.stdout/stderr directly (they use print/warn), so they are testable with fake streams.
 */
export interface SlashContext {
  app: AppContext;
  chat: ChatSession;
  /** The API client the chat talks through (a /run uses it too); absent in tests without one. */
  client?: PlatformClient | undefined;
  /** The chat's MCP servers, when any are configured. */
  mcp?: ChatMcp | undefined;
  /** Write a line (or lines) for the user (stderr). */
  print(text: string): void;
  warn(text: string): void;
  /** Ask a yes/no question; false when cancelled. */
  confirm(question: string): Promise<boolean>;
  /** Run a user message through the agent as if typed (used by /skill new, /resume…). */
  sendMessage(text: string): Promise<void>;
  /** Draw a run (a /run of a skill) the way chat is drawn; resolves with its result. */
  renderRun?(run: AsyncGenerator<RunEvent, AgentResult>, usage: () => UsageTracker): Promise<AgentResult>;
  /** End the REPL after this command. */
  exit(): void;
  /** What command families keep between commands of one REPL. */
  state: ReplState;
  /** Every command of this REPL (for /help and suggestions); set by the REPL. */
  commands?: readonly SlashCommand[];
  /** What /help says about command files that were left out (a bad file, a built-in's name). */
  commandNotes?: readonly string[];
  /** The REPL's display settings; set by the REPL. */
  display?: ReplDisplay;
  /** The terminal the REPL draws on (/copy sends the clipboard sequence to it). */
  terminal?: { isTTY?: boolean; write(s: string): void };
  /** Open the text (or the next message) in the person's editor; the result waits on the prompt. */
  composeInEditor?(text: string): Promise<void>;
  /** Attach the clipboard's image to the next message (/paste, Ctrl+V). */
  pasteImage?(): Promise<void>;
}

/** The per-REPL state of the slash commands. */
export interface ReplState {
  /** The skills found last (for completion; dropped when a skill is created, edited or deleted). */
  catalog?: SkillCatalog;
  /** The sessions /sessions listed last, numbered for `/resume <n>`. */
  lastList?: SessionSummary[];
  /** A `/skill new` conversation under way: the settings to go back to. */
  creating?: { model: string; thinking: boolean };
  /** Called by the REPL after every message's run (`/skill new` looks for the saved skill). */
  afterTurn?: () => void;
}

/** What /verbose and /clear change. */
export interface ReplDisplay {
  /** Show the model's thinking in full (otherwise a short live preview, then one line). */
  verbose: boolean;
  /** The line under the prompt (model · mode · context · cost). */
  statusLine: boolean;
  clearScreen(): void;
}

export interface SlashCommand {
  name: string;
  aliases?: string[];
  /** One-line description shown by /help (an i18n key). */
  description: MessageKey;
  /** The description in the file's own words (commands from files); shown instead of `description`. */
  summary?: string;
  /** A command from a Markdown file (listed apart in /help). */
  custom?: boolean;
  /** A prompt of an MCP server (listed apart in /help). */
  mcpPrompt?: boolean;
  /** Argument synopsis for /help, e.g. "<skill> [inputs…]". */
  usage?: string;
  /**
   * Tab completion of the argument text typed so far (after the command name and a space).
   * Candidates either replace all of that text (`show translate` for `show tr`) or only its last
   * word (`translate` for `show tr`); the REPL tells which by whether they start with `partial`.
   */
  complete?(partial: string, ctx: SlashContext): string[] | Promise<string[]>;
  run(args: string, ctx: SlashContext): Promise<void>;
}

/** The argument of an on/off switch (`/verbose on`, `/statusline off`); anything else flips it. */
export function switchTo(args: string, current: boolean): boolean {
  const word = args.trim().toLowerCase();
  return word === 'on' ? true : word === 'off' ? false : !current;
}
