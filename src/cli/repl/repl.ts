import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { ChatSession } from '../../agent/chat.js';
import type { AgentResult, RunEvent } from '../../agent/events.js';
import type { Prompter } from '../../agent/loop.js';
import { grantTyped } from '../../agent/permissions.js';
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
import { attachMark } from '../render/symbols.js';
import { fitLines } from '../render/width.js';
import { chatModel } from '../settings.js';
import { editorAsker } from './ask.js';
import { type Attachments, attachFromMessage, buildContent, emptyAttachments } from './attach/attach.js';
import { makeAttachEnv } from './attach/env.js';
import { findMistyped, mistypedWarning } from './attach/mistyped.js';
import { bangCommand, runBang } from './bang.js';
import type { ReplState, SlashCommand, SlashContext } from './commands/types.js';
import { complete } from './complete.js';
import { editInEditor } from './edit-external.js';
import { type EditorStreams, LineEditor } from './editor.js';
import type { History } from './history.js';
import { classify, slashForm } from './input.js';
import { dedupeCommands, type Lazy, loadRenderer, once } from './lazy.js';
import { modeName } from './mode-name.js';
import { replPrompter } from './prompter.js';
import { statusText } from './status.js';
import { snapshot, usageSince } from './usage-delta.js';
import { sessionUsageLine } from './usage-text.js';

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

  /**
   * While the prompt waits for the person's first message: build the conversation and load the
   * renderer, the slash commands and Node's fetch, so the first Enter costs what a later one does
   * (about 0.4 CPU-s otherwise). Started a moment after the prompt is drawn; never keeps the
   * process alive, and a failure shows when the chat is first used.
   */
  warmUp(delayMs = 50): void {
    const quiet = () => undefined;
    const timer = setTimeout(() => {
      void this.loadCommands().catch(quiet);
      void import('./warm.js')
        .then(async (w) => {
          const { chat } = await this.loadChat();
          this.editor.redraw();
          w.warmChat(chat);
          await Promise.all([w.warmFetch(), w.warmMarkdown()]);
          await w.warmRenderer(this.ctx);
        })
        .catch(quiet);
    }, delayMs);
    timer.unref();
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
      commands: await this.loadCommands(),
      display: this.display,
      terminal: this.io.output,
      composeInEditor: (text) => this.compose(text),
      pasteImage: () => this.pasteImage(),
    };
  }

  /** Ctrl+V, /paste: the clipboard's image waits for the next message. */
  private async pasteImage(): Promise<void> {
    const built = await this.loadChat();
    const style = this.ctx.err;
    const { pasteClipboardImage } = await import('./attach/paste.js');
    const attached = await pasteClipboardImage(this.ctx, built, this.pending, {
      note: (line) =>
        this.io.output.write(
          style.enabled ? `${style.dim(`${attachMark()} ${line}`)}\n` : `[FILE] ${line}\n`,
        ),
      confirm: (question) => this.asker.yesNo(question, { defaultYes: true }),
      warn: (line) => this.io.output.write(formatWarning(line, style)),
    });
    if (attached) this.io.output.write(`${style.dim(t('repl.attach.pending'))}\n`);
  }

  private get mode(): string {
    return this.chat?.settings.mode ?? this.ctx.mode;
  }

  private prompt(): string {
    const text = `zhi [${modeName(this.mode)}]> `;
    const style = this.ctx.err;
    if (!style.enabled) return text;
    return this.mode === 'auto' ? style.yellow(style.bold(text)) : style.cyan(style.bold(text));
  }

  private statusLine(): string | undefined {
    if (!this.display.statusLine || !this.io.output.isTTY) return undefined;
    const fallback = {
      model: chatModel(this.ctx).model,
      mode: this.mode,
      currency: this.ctx.platform.currency,
    };
    return this.ctx.err.dim(statusText(this.chat, fallback));
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
    this.io.output.write(formatWarning(mistypedWarning(typo), this.ctx.err));
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
  private async stoppable<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    this.editor.busy((key) => (key === 'esc' ? this.ctx.interrupt.stop() : this.ctx.interrupt.press()));
    try {
      return await this.ctx.interrupt.run(fn);
    } finally {
      this.editor.idle();
    }
  }

  /** The window's width when output goes to a terminal. */
  private columns(): number | undefined {
    return this.io.output.isTTY ? this.io.output.columns : undefined;
  }

  private clearScreen(): void {
    if (this.io.output.isTTY) this.io.output.write('\x1b[H\x1b[2J');
  }

  welcome(): void {
    const line = t('repl.welcome', {
      version: __ZHI_VERSION__,
      model: this.chat?.settings.model ?? chatModel(this.ctx).model,
      mode: modeName(this.mode),
    });
    this.io.output.write(`${fitLines(this.ctx.err.dim(line), this.columns())}\n`);
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
        this.io.output.write(
          formatError(toZhiError(err), this.ctx.err, { debug: this.ctx.args.flags.debug, inRepl: true }),
        );
      }
    }
    this.editor.close();
    const usage = this.chat ? sessionUsageLine(this.chat.deps.usage) : t('repl.sessionNoUsage');
    this.io.output.write(`${this.ctx.err.dim(usage)}\n`);
    // A saved conversation: say how to come back to it.
    const wiring = this.chat?.session;
    if (wiring && (wiring.recorder.started || wiring.earlier)) {
      this.io.output.write(`${this.ctx.err.dim(t('sessions.resumeHint', { id: wiring.recorder.id }))}\n`);
    }
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
    // (/run, /compact) run inside the interrupt, so the key is passed on to it as a press.
    this.editor.busy((key) => (key === 'esc' ? this.ctx.interrupt.stop() : this.ctx.interrupt.press()));
    try {
      await cmd.run(args, slash);
    } catch (err) {
      log().error(`command /${name} failed`, err);
      this.io.output.write(
        formatError(toZhiError(err), this.ctx.err, { debug: this.ctx.args.flags.debug, inRepl: true }),
      );
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
    const before = snapshot(chat.deps.usage);
    const started = Date.now();
    try {
      await this.stoppable(async (signal) => {
        const style = this.ctx.err;
        const env = makeAttachEnv(
          this.ctx,
          built,
          {
            note: (line) =>
              this.io.output.write(
                style.enabled ? `${style.dim(`${attachMark()} ${line}`)}\n` : `[FILE] ${line}\n`,
              ),
            confirm: (question) => this.asker.yesNo(question, { signal, defaultYes: true }),
          },
          signal,
        );
        const { attachments, onlyFiles } = await attachFromMessage(text, env, this.pending);
        if (signal.aborted) {
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
        const run = chat.send(buildContent(text, attachments), signal);
        await this.renderRun(run, () => usageSince(before, chat.deps.usage), started);
        this.state.afterTurn?.();
      });
    } catch (err) {
      log().error('message failed', err);
      this.io.output.write(
        formatError(toZhiError(err), this.ctx.err, { debug: this.ctx.args.flags.debug, inRepl: true }),
      );
    }
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

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}
