import { grantTyped } from '../../agent/permissions.js';
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { ChatSession } from '../../agent/chat.js';
import type { Prompter } from '../../agent/loop.js';
import type { AgentResult, RunEvent } from '../../agent/events.js';
import type { ContentPart } from '../../llm/types.js';
import { UsageTracker } from '../../llm/usage.js';
import { ExitCode, type ExitCodeValue, toZhiError } from '../../support/errors.js';
import { getLanguage, t } from '../../support/i18n/index.js';
import { log } from '../../support/log.js';
import { visible } from '../../support/sanitize.js';
import { nearest } from '../../support/suggest.js';
import type { BuiltChat } from '../chat.js';
import type { AppContext } from '../context.js';
import { pump } from '../interrupt.js';
import { formatError, formatWarning } from '../render/error.js';
import type { ReplRenderer } from '../render/repl-renderer.js';
import { type Attachments, attachFromMessage, buildContent, emptyAttachments } from './attach/attach.js';
import { makeAttachEnv } from './attach/env.js';
import { findMistyped } from './attach/mistyped.js';
import type { ReplState, SlashCommand, SlashContext } from './commands/types.js';
import { complete } from './complete.js';
import { bangCommand, runBang } from './bang.js';
import { type EditorStreams, LineEditor } from './editor.js';
import type { History } from './history.js';
import { classify, slashForm } from './input.js';
import { isYes, replPrompter } from './prompter.js';
import { statusText } from './status.js';
import { sessionUsageLine } from './usage-text.js';

/** The streams of a REPL: keys in, the prompt and progress (stderr), the answers (stdout). */
export interface ReplStreams extends EditorStreams {
  output: NodeJS.WritableStream & { isTTY?: boolean; columns?: number; rows?: number };
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number; rows?: number };
}

type Lazy<T> = T | (() => Promise<T>);

export interface ReplParts {
  ctx: AppContext;
  /**
   * How to make the conversation, given the REPL's prompter (questions asked in the editor): it is
   * made when first needed, after the prompt shows.
   */
  chat: (prompter: Prompter) => Promise<BuiltChat>;
  /** The slash commands, or how to load them (then on the first command or Tab). */
  commands: Lazy<SlashCommand[]>;
  history: History;
  io: ReplStreams;
  /** Animate spinners (off in unit tests). */
  animate?: boolean;
}

function once<T>(value: Lazy<T>): () => Promise<T> {
  if (typeof value !== 'function') return () => Promise.resolve(value);
  let p: Promise<T> | undefined;
  return () => {
    p ??= (value as () => Promise<T>)();
    return p;
  };
}

let rendererModule: Promise<typeof import('../render/repl-renderer.js')> | undefined;
/** The Markdown renderer (marked, string-width): loaded after the prompt shows, never before. */
export function loadRenderer(): Promise<typeof import('../render/repl-renderer.js')> {
  rendererModule ??= import('../render/repl-renderer.js');
  return rendererModule;
}

/** Later command modules override earlier ones of the same name (a richer /usage, say). */
export function dedupeCommands(all: SlashCommand[]): SlashCommand[] {
  const byName = new Map<string, SlashCommand>();
  for (const c of all) byName.set(c.name, c);
  return [...byName.values()];
}

/** Usage added since a snapshot, as a tracker of its own (for the per-message closing line). */
export function usageSince(before: UsageTracker, now: UsageTracker): UsageTracker {
  const delta = new UsageTracker(now.platform);
  const earlier = new Map(before.models());
  for (const [model, u] of now.models()) {
    const b = earlier.get(model);
    const d = {
      promptTokens: u.promptTokens - (b?.promptTokens ?? 0),
      completionTokens: u.completionTokens - (b?.completionTokens ?? 0),
      totalTokens: u.totalTokens - (b?.totalTokens ?? 0),
      cachedTokens: u.cachedTokens - (b?.cachedTokens ?? 0),
      reasoningTokens: u.reasoningTokens - (b?.reasoningTokens ?? 0),
    };
    if (u.calls !== (b?.calls ?? 0) || d.totalTokens) delta.add(model, d);
  }
  return delta;
}

function snapshot(usage: UsageTracker): UsageTracker {
  const copy = new UsageTracker(usage.platform);
  copy.merge(usage);
  return copy;
}

/**
 * The interactive conversation: read a message (or a slash command), attach the files it names,
 * run it through the chat while the renderer draws the event stream, and come back to the
 * prompt — after an answer, an error or Ctrl+C alike. Ctrl+D, /exit or Ctrl+C twice end it with
 * the session's usage.
 */
export class Repl {
  readonly editor: LineEditor;
  private readonly display = { verbose: false, statusLine: true, clearScreen: () => this.clearScreen() };
  private renderer: ReplRenderer | undefined;
  private exiting = false;
  private typeahead = '';
  private heldTypo: string | undefined;
  private pending: Attachments = emptyAttachments();
  private readonly ctx: AppContext;
  private readonly io: ReplStreams;
  private readonly state: ReplState = {};
  private chat: ChatSession | undefined;
  private built: BuiltChat | undefined;
  private commands: SlashCommand[] = [];
  private commandNames = new Set<string>();
  private readonly loadChat: () => Promise<BuiltChat>;
  private readonly loadCommands: () => Promise<SlashCommand[]>;

  constructor(private readonly parts: ReplParts) {
    const { ctx, io, history } = parts;
    this.ctx = ctx;
    this.io = io;
    this.display.verbose = ctx.args.flags.verbose > 0;
    this.display.statusLine = ctx.config.statusLine !== false;
    this.loadChat = once(async () => {
      const prompter = replPrompter(this.editor, ctx.err, (s) => io.output.write(s), {
        before: () => this.renderer?.suspend(),
        after: () => this.renderer?.resume(),
      });
      this.built = await parts.chat(prompter);
      this.chat = this.built.chat;
      return this.built;
    });
    const getCommands = once(parts.commands);
    this.loadCommands = once(async () => {
      this.commands = dedupeCommands(await getCommands());
      this.commandNames = new Set(this.commands.flatMap((c) => [c.name, ...(c.aliases ?? [])]));
      return this.commands;
    });
    this.editor = new LineEditor(io, {
      history,
      prompt: () => this.prompt(),
      continuation: ctx.err.dim('… '),
      bracketedPaste: Boolean(io.output.isTTY) && ctx.env.TERM !== 'dumb',
      searchPrompt: (query, failed) => t(failed ? 'repl.searchFailed' : 'repl.search', { query }),
      status: () => this.statusLine(),
      externalEdit: (text) => this.externalEdit(text),
      onTypeahead: (text) => {
        this.typeahead = text;
        this.renderer?.setTypeahead(text);
      },
      completer: async (line) =>
        complete(line, {
          commands: await this.loadCommands(),
          ctx: await this.slashContext(),
          cwd: ctx.cwd,
          home: ctx.env.HOME || homedir(),
        }),
    });
  }

  /** Make the conversation now (with --resume its notes must come before the first prompt). */
  async ready(): Promise<void> {
    await Promise.all([this.loadChat(), this.loadCommands()]);
  }

  /** What slash commands reach (the conversation is made first, if it is not yet). */
  async slashContext(): Promise<SlashContext> {
    const { chat, client, mcp } = await this.loadChat();
    const style = this.ctx.err;
    return {
      app: this.ctx,
      chat,
      client,
      mcp,
      print: (text) => this.io.output.write(`${text}\n`),
      warn: (text) => this.io.output.write(formatWarning(text, style)),
      confirm: async (question) => isYes(await this.editor.ask(`${question} ${t('repl.yesNo')} `)),
      sendMessage: (text) => this.send(text),
      renderRun: (run, usage) => this.renderRun(run, usage),
      exit: () => {
        this.exiting = true;
      },
      state: this.state,
      commands: await this.loadCommands(),
      display: this.display,
      terminal: this.io.output,
      composeInEditor: (text) => this.compose(text),
    };
  }

  private get mode(): string {
    return this.chat?.settings.mode ?? this.ctx.mode;
  }

  private prompt(): string {
    const text = `zhi [${this.mode}]> `;
    const style = this.ctx.err;
    if (!style.enabled) return text;
    return this.mode === 'auto' ? style.yellow(style.bold(text)) : style.cyan(style.bold(text));
  }

  private statusLine(): string | undefined {
    if (!this.display.statusLine || !this.io.output.isTTY) return undefined;
    const fallback = {
      model: this.ctx.config.defaultModel,
      mode: this.mode,
      currency: this.ctx.platform.currency,
    };
    return this.ctx.err.dim(statusText(this.chat, fallback));
  }

  /** Ctrl+X Ctrl+E and /editor: the person's editor has the terminal until it closes. */
  private async externalEdit(text: string): Promise<string | undefined> {
    const { editText } = await import('../external-editor.js');
    this.editor.suspend();
    let r: Awaited<ReturnType<typeof editText>>;
    try {
      r = await editText(text, this.ctx.env);
    } finally {
      this.editor.resume();
    }
    if (r.kind === 'edited') return r.text;
    if (r.kind === 'unchanged') this.io.output.write(`${this.ctx.err.dim(t('input.editor.unchanged'))}\n`);
    else {
      const what = t('input.editor.failed', { editor: r.editor, reason: r.reason });
      this.io.output.write(formatWarning(`${what}\n${t('input.editor.failedTry')}`, this.ctx.err));
    }
    return undefined;
  }

  private async compose(text: string): Promise<void> {
    const edited = await this.externalEdit(text);
    if (edited === undefined) return;
    this.editor.prefill(edited);
    this.io.output.write(`${this.ctx.err.dim(t('input.editor.ready'))}\n`);
  }

  /**
   * A message naming a file that is one typo away from a real one goes back on the prompt with a
   * suggestion instead of being sent without the file. Sent as it is when Enter is pressed again.
   */
  private heldBack(text: string): boolean {
    if (text === this.heldTypo) {
      this.heldTypo = undefined;
      return false;
    }
    const home = this.ctx.env.HOME || homedir();
    const typo = findMistyped(text, { cwd: this.ctx.cwd, home, isFile: (p) => statSync(p).isFile() });
    if (!typo) return false;
    this.heldTypo = text;
    const lines = [
      t('input.missing', { name: visible(typo.typed), suggestion: visible(typo.suggestion) }),
      t('input.missingTry'),
    ];
    this.io.output.write(formatWarning(lines.join('\n  '), this.ctx.err));
    this.editor.prefill(text);
    return true;
  }

  /** `!command`: run by the shell tool for the person, its output added to the conversation. */
  private async bang(command: string): Promise<void> {
    if (!command) {
      this.io.output.write(formatWarning(t('input.bang.empty'), this.ctx.err));
      return;
    }
    const { chat } = await this.loadChat();
    const abort = new AbortController();
    this.editor.busy(() => abort.abort());
    try {
      await runBang(command, chat, {
        write: (text) => this.io.output.write(text),
        warn: (text) => this.io.output.write(formatWarning(text, this.ctx.err)),
        confirm: async (q) => isYes(await this.editor.ask(q, abort.signal)),
        style: this.ctx.err,
        signal: abort.signal,
      });
    } finally {
      this.editor.idle();
    }
  }

  private clearScreen(): void {
    if (this.io.output.isTTY) this.io.output.write('\x1b[H\x1b[2J');
  }

  welcome(): void {
    const line = t('repl.welcome', {
      version: __ZHI_VERSION__,
      model: this.chat?.settings.model ?? this.ctx.config.defaultModel,
      mode: this.mode,
    });
    this.io.output.write(`${this.ctx.err.dim(line)}\n`);
  }

  async run(): Promise<ExitCodeValue> {
    let interrupted = false;
    while (!this.exiting) {
      const r = await this.editor.read();
      if (r.kind === 'eof') break;
      if (r.kind === 'interrupt') {
        if (interrupted) break;
        interrupted = true;
        this.io.output.write(`\n${this.ctx.err.dim(t('repl.ctrlCHint'))}\n`);
        continue;
      }
      interrupted = false;
      await this.parts.history.add(r.text);
      try {
        await this.handle(r.text);
      } catch (err) {
        log().error('repl: line failed', err);
        this.io.output.write(formatError(toZhiError(err), this.ctx.err, this.ctx.args.flags.debug));
      }
    }
    this.editor.close();
    const usage = this.chat ? sessionUsageLine(this.chat.deps.usage) : t('repl.sessionNoUsage');
    this.io.output.write(`${this.ctx.err.dim(usage)}\n`);
    return ExitCode.ok;
  }

  /** One submitted line: a command or a message. */
  async handle(text: string): Promise<void> {
    const command = bangCommand(text);
    if (command !== undefined) {
      await this.bang(command);
      return;
    }
    if (slashForm(text).trimStart().startsWith('/')) await this.loadCommands();
    const parsed = classify(text, this.commandNames, (p) => exists(resolve(this.ctx.cwd, p)));
    if (parsed.kind === 'empty') return;
    if (parsed.kind === 'command') {
      await this.command(parsed.name, parsed.args);
      return;
    }
    await this.send(parsed.text);
  }

  private async command(name: string, args: string): Promise<void> {
    const slash = await this.slashContext();
    const cmd = this.commands.find((c) => c.name === name || c.aliases?.includes(name));
    if (!cmd) {
      const suggestion = name ? nearest(name, this.commandNames) : undefined;
      const lines = [
        t('repl.unknownCommand', { name }),
        suggestion ? t('repl.didYouMean', { suggestion }) : t('repl.seeHelp'),
      ];
      slash.warn(lines.join(getLanguage() === 'zh' ? '' : ' '));
      return;
    }
    // The terminal is in raw mode: Ctrl+C is a key, not a signal. Commands that can be stopped
    // (/run) listen for SIGINT, so the key is passed on as one.
    this.editor.busy(() => process.emit('SIGINT', 'SIGINT'));
    try {
      await cmd.run(args, slash);
    } catch (err) {
      log().error(`command /${name} failed`, err);
      this.io.output.write(formatError(toZhiError(err), this.ctx.err, this.ctx.args.flags.debug));
    } finally {
      this.editor.idle();
    }
  }

  /** Send a message as if the person had typed it at the prompt. */
  async sendShown(text: string): Promise<void> {
    this.io.output.write(`${this.prompt()}${text}\n`);
    await this.send(text);
  }

  /** Send a message (with the files it names) and render the run. */
  async send(text: string): Promise<void> {
    if (this.heldBack(text)) return;
    const rendererReady = loadRenderer();
    const built = await this.loadChat();
    const { chat } = built;
    const abort = new AbortController();
    const stop = () => abort.abort();
    const before = snapshot(chat.deps.usage);
    const started = Date.now();
    this.editor.busy(stop);
    process.on('SIGINT', stop);
    try {
      const style = this.ctx.err;
      const env = makeAttachEnv(
        this.ctx,
        built,
        {
          note: (line) =>
            this.io.output.write(style.enabled ? `${style.dim(`📎 ${line}`)}\n` : `[FILE] ${line}\n`),
          confirm: async (question) => isYes(await this.editor.ask(question, abort.signal), true),
        },
        abort.signal,
      );
      const { attachments, onlyFiles } = await attachFromMessage(text, env, this.pending);
      if (abort.signal.aborted) {
        this.io.output.write(formatWarning(t('repl.interrupted'), style));
        return;
      }
      if (onlyFiles) {
        this.pending = attachments;
        this.io.output.write(`${style.dim(t('repl.attach.pending'))}\n`);
        return;
      }
      this.pending = emptyAttachments();
      // The addresses the person typed may be fetched without a question (not those in files).
      if (chat.deps.webGrants) grantTyped(chat.deps.webGrants, text);
      await rendererReady;
      await this.runMessage(chat, buildContent(text, attachments), abort.signal, before, started);
      this.state.afterTurn?.();
    } catch (err) {
      log().error('message failed', err);
      this.io.output.write(formatError(toZhiError(err), this.ctx.err, this.ctx.args.flags.debug));
    } finally {
      process.off('SIGINT', stop);
      this.editor.idle();
    }
  }

  private async runMessage(
    chat: ChatSession,
    content: string | ContentPart[],
    signal: AbortSignal,
    before: UsageTracker,
    started: number,
  ): Promise<void> {
    await this.renderRun(chat.send(content, signal), () => usageSince(before, chat.deps.usage), started);
  }

  /**
   * Draw a run's events the way chat is drawn (the answer as Markdown on stdout, tool lines on
   * stderr): a chat message, and a `/run` of a skill. `usage` is the run's usage once it ended.
   */
  async renderRun(
    run: AsyncGenerator<RunEvent, AgentResult>,
    usage: () => UsageTracker,
    started = Date.now(),
  ): Promise<AgentResult> {
    const { ReplRenderer } = await loadRenderer();
    const { ctx, io } = this;
    const richOut = Boolean(io.stdout.isTTY);
    const renderer = new ReplRenderer({
      // A dumb terminal cannot move the cursor: blocks are printed once, as without colour.
      mode: richOut
        ? ctx.out.enabled && ctx.err.enabled && ctx.env.TERM !== 'dumb'
          ? 'rich'
          : 'plain'
        : 'pipe',
      term: {
        write: (s) => io.stdout.write(s),
        columns: () => io.stdout.columns || 80,
        rows: () => io.stdout.rows || 24,
      },
      out: ctx.out,
      err: ctx.err,
      stderr: (s) => io.output.write(s),
      verbose: () => this.display.verbose,
      debug: ctx.args.flags.debug,
      cwd: ctx.cwd,
      animate: this.parts.animate ?? true,
    });
    this.renderer = renderer;
    renderer.setTypeahead(this.typeahead);
    try {
      const result = await pump(run, (ev) => renderer.handle(ev));
      renderer.finish(result, usage(), Date.now() - started);
      return result;
    } catch (err) {
      renderer.dispose();
      throw err;
    } finally {
      this.renderer = undefined;
    }
  }
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}
