import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ChatSession } from '../../agent/chat.js';
import type { AgentResult, RunEvent } from '../../agent/events.js';
import type { Prompter } from '../../agent/loop.js';
import type { UsageTracker } from '../../llm/usage.js';
import { ExitCode, type ExitCodeValue, toZhiError } from '../../support/errors.js';
import { getLanguage, t } from '../../support/i18n/index.js';
import { log } from '../../support/log.js';
import { nearest } from '../../support/suggest.js';
import type { Asker } from '../ask.js';
import type { BuiltChat } from '../chat.js';
import type { AppContext } from '../context.js';
import { drawRun, runRenderer } from '../render/draw-run.js';
import { formatError, formatWarning } from '../render/error.js';
import type { ReplRenderer } from '../render/repl-renderer.js';
import { fitLines } from '../render/width.js';
import { editorAsker } from './ask.js';
import { mcpPrompts } from './commands/mcp-prompts.js';
import type { ReplState, SlashCommand, SlashContext } from './commands/types.js';
import { editInEditor } from './edit-external.js';
import type { EditorStreams, LineEditor } from './editor.js';
import type { History } from './history.js';
import { bangCommand, classify, slashForm } from './input.js';
import { dedupeCommands, type Lazy, once, TypingWork } from './lazy.js';
import type { MessageSender } from './message.js';
import { promptText, statusLineText, welcomeText } from './prompt-line.js';
import { replPrompter } from './prompter.js';
import { replEditor } from './repl-editor.js';
import { goodbyeLines } from './usage-text.js';

/** The streams of a REPL: keys in, the prompt and progress (stderr), the answers (stdout). */
export interface ReplStreams extends EditorStreams {
  output: NodeJS.WritableStream & { isTTY?: boolean; columns?: number; rows?: number };
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number; rows?: number };
}

export interface ReplParts {
  ctx: AppContext;
  /**
   * How to make the conversation, given the REPL's prompter (questions asked in the editor): it is
   * made when first needed, after the prompt shows.
   */
  chat: (prompter: Prompter) => Promise<BuiltChat>;
  /** The slash commands, or how to load them (then on the first command or Tab). */
  commands: Lazy<SlashCommand[]>;
  /** What /help says about command files left out. */ commandNotes?: () => readonly string[];
  history: History;
  io: ReplStreams;
  /** Animate spinners (off in unit tests). */
  animate?: boolean;
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
  private readonly typing: TypingWork;
  /** The message path (attachments, send, draw): loaded with the first message, or while it is typed. */
  private readonly messages: () => Promise<MessageSender>;
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
    this.messages = once(async () => {
      const { MessageSender } = await import('./message.js');
      return new MessageSender({
        ctx,
        write: (text) => io.output.write(text),
        loadChat: () => this.loadChat(),
        asker: () => this.asker,
        stoppable: (fn) => this.stoppable(fn),
        renderRun: (run, usage, started) => this.renderRun(run, usage, started),
        prefill: (text) => this.editor.prefill(text),
        afterTurn: () => this.state.afterTurn?.(),
      });
    });
    this.typing = new TypingWork({
      loadChat: () => this.loadChat(),
      loadMore: () => this.messages(),
      redraw: () => this.editor.redraw(),
    });
    this.editor = replEditor(io, history, ctx, {
      prompt: () => this.prompt(),
      status: () => this.statusLine(),
      externalEdit: (text) => this.externalEdit(text),
      onTypeahead: (text) => {
        this.typeahead = text;
        this.renderer?.setTypeahead(text);
      },
      onTyping: () => this.typing.typed(),
      slashContext: () => this.slashContext(),
      loadCommands: () => this.loadCommands(),
    });
  }

  /**
   * Start making the conversation while the prompt is already up (--continue): the status line
   * shows its model and context once it is there. A failure shows when the chat is first used.
   */
  preload(): void {
    this.loadChat().then(
      () => this.editor.redraw(),
      () => undefined,
    );
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
      // No word is cut in two by the terminal: lines longer than the window wrap at words.
      print: (text) => this.io.output.write(`${fitLines(text, this.columns())}\n`),
      warn: (text) => this.io.output.write(formatWarning(text, style)),
      confirm: (question) => this.asker.yesNo(`${question} ${t('repl.yesNo')} `),
      sendMessage: (text) => this.send(text),
      renderRun: (run, usage) => this.renderRun(run, usage),
      exit: () => {
        this.exiting = true;
      },
      state: this.state,
      // The prompts of MCP servers that are up join the commands (/help, Tab).
      commands: [...(await this.loadCommands()), ...(await mcpPrompts(mcp))],
      ...(this.parts.commandNotes ? { commandNotes: this.parts.commandNotes() } : {}),
      display: this.display,
      terminal: this.io.output,
      composeInEditor: (text) => this.compose(text),
      pasteImage: () => this.pasteImage(),
    };
  }

  private get mode(): string {
    return this.chat?.settings.mode ?? this.ctx.mode;
  }

  private prompt(): string {
    return promptText(this.mode, this.ctx.err);
  }

  private statusLine(): string | undefined {
    if (!this.display.statusLine || !this.io.output.isTTY) return undefined;
    return statusLineText(this.ctx, this.chat, this.mode);
  }

  /** Ctrl+X Ctrl+E and /editor: the person's editor has the terminal until it closes. */
  private externalEdit(text: string): Promise<string | undefined> {
    return editInEditor(text, {
      editor: this.editor,
      env: this.ctx.env,
      style: this.ctx.err,
      write: (s) => this.io.output.write(s),
    });
  }

  private async compose(text: string): Promise<void> {
    const edited = await this.externalEdit(text);
    if (edited === undefined) return;
    this.editor.prefill(edited);
    this.io.output.write(`${this.ctx.err.dim(t('input.editor.ready'))}\n`);
  }

  /** `!command`: run by the shell tool for the person, its output added to the conversation. */
  private async bang(command: string): Promise<void> {
    if (!command) {
      this.io.output.write(formatWarning(t('input.bang.empty'), this.ctx.err));
      return;
    }
    const { chat } = await this.loadChat();
    // The shell tool (and the schemas it brings) loads on the first `!`, not before the prompt.
    const { runBang } = await import('./bang.js');
    await this.stoppable((signal) =>
      runBang(command, chat, {
        write: (text) => this.io.output.write(text),
        warn: (text) => this.io.output.write(formatWarning(text, this.ctx.err)),
        confirm: (q) => this.asker.yesNo(q, { signal }),
        style: this.ctx.err,
        signal,
      }),
    );
  }

  /** Questions to the person, through the line editor (the REPL's adapter of the Asker). */
  private get asker(): Asker {
    return editorAsker(this.editor, (s) => this.io.output.write(s));
  }

  /**
   * Run something Ctrl+C stops, through the process's one interrupt: in raw mode the key reaches
   * the line editor, which passes it on as a press.
   */
  private stoppable<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    return this.busy(() => this.ctx.interrupt.run(fn));
  }

  /** The terminal is in raw mode: Ctrl+C (and Esc) while this runs are passed on to the interrupt. */
  private async busy<T>(fn: () => Promise<T>): Promise<T> {
    this.editor.busy((key) => (key === 'esc' ? this.ctx.interrupt.stop() : this.ctx.interrupt.press()));
    try {
      return await fn();
    } finally {
      this.editor.idle();
    }
  }

  private showError(err: unknown): void {
    const view = { debug: this.ctx.args.flags.debug, inRepl: true };
    this.io.output.write(formatError(toZhiError(err), this.ctx.err, view));
  }

  /** The window's width when output goes to a terminal. */
  private columns(): number | undefined {
    return this.io.output.isTTY ? this.io.output.columns : undefined;
  }

  private clearScreen(): void {
    if (this.io.output.isTTY) this.io.output.write('\x1b[H\x1b[2J');
  }

  welcome(): void {
    this.io.output.write(`${fitLines(welcomeText(this.ctx, this.chat, this.mode), this.columns())}\n`);
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
      if (r.kind === 'paste-image') {
        await this.pasteImage();
        this.editor.prefill(r.draft);
        continue;
      }
      await this.parts.history.add(r.text);
      try {
        await this.handle(r.text);
      } catch (err) {
        log().error('repl: line failed', err);
        this.showError(err);
      }
    }
    this.editor.close();
    for (const line of goodbyeLines(this.chat)) this.io.output.write(`${this.ctx.err.dim(line)}\n`);
    return ExitCode.ok;
  }

  /** One submitted line: a command or a message. */
  async handle(text: string): Promise<void> {
    this.typing.sent();
    const command = bangCommand(text);
    if (command !== undefined) {
      await this.bang(command);
      return;
    }
    if (slashForm(text).trimStart().startsWith('/')) await this.loadCommands();
    const parsed = classify(text, this.commandNames, (p) => existsSync(resolve(this.ctx.cwd, p)));
    if (parsed.kind === 'empty') return;
    if (parsed.kind === 'command') {
      await this.command(parsed.name, parsed.args);
      return;
    }
    await this.send(parsed.text);
  }

  private async command(name: string, args: string): Promise<void> {
    const slash = await this.slashContext();
    const cmd = slash.commands?.find((c) => c.name === name || c.aliases?.includes(name));
    if (!cmd && slash.mcp && name.startsWith('mcp__')) {
      // A prompt of a server not up yet: runPrompt waits for the servers, then says if there is none.
      const { runPrompt } = await import('./commands/mcp.js');
      await this.busy(() =>
        runPrompt(slash.mcp!, name, args, slash).catch((err: unknown) => this.showError(err)),
      );
      return;
    }
    if (!cmd) {
      const suggestion = name ? nearest(name, this.commandNames) : undefined;
      const lines = [
        t('repl.unknownCommand', { name }),
        suggestion ? t('repl.didYouMean', { suggestion }) : t('repl.seeHelp'),
      ];
      slash.warn(lines.join(getLanguage() === 'zh' ? '' : ' '));
      return;
    }
    // Commands that can be stopped (/run, /compact) run inside the interrupt: Ctrl+C is a key here.
    await this.busy(() =>
      cmd.run(args, slash).catch((err: unknown) => {
        log().error(`command /${name} failed`, err);
        this.showError(err);
      }),
    );
  }

  /** Send a message as if the person had typed it at the prompt. */
  async sendShown(text: string): Promise<void> {
    this.io.output.write(`${this.prompt()}${text}\n`);
    await this.send(text);
  }

  /** Send a message (with the files it names) and render the run. */
  send(text: string): Promise<void> {
    this.typing.sent();
    // The answer just came over the connection: fresh for another 2 s.
    return this.messages()
      .then((m) => m.send(text))
      .finally(() => this.typing.sent());
  }

  /** Ctrl+V, /paste: the clipboard's image waits for the next message. */
  private pasteImage(): Promise<void> {
    return this.messages().then((m) => m.pasteImage());
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
    const renderer = await runRenderer(
      this.ctx,
      { stdout: this.io.stdout, stderr: (s) => this.io.output.write(s) },
      { verbose: () => this.display.verbose, animate: this.parts.animate ?? true },
    );
    this.renderer = renderer;
    renderer.setTypeahead(this.typeahead);
    try {
      return await drawRun(renderer, run, usage, started);
    } finally {
      this.renderer = undefined;
    }
  }
}
