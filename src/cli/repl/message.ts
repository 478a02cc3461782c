/**
 * A message from the REPL's prompt on its way to the chat: the files it names are attached
 * (or wait for the next message when it names only files), an image pasted from the clipboard
 * waits the same way, a file name one typo away from a real file holds the message back once,
 * and the run is drawn like chat.
 */
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import type { AgentResult, RunEvent } from '../../agent/events.js';
import { grantTyped } from '../../agent/permissions.js';
import type { UsageTracker } from '../../llm/usage.js';
import { pushAll } from '../../support/arrays.js';
import { toZhiError } from '../../support/errors.js';
import { t } from '../../support/i18n/index.js';
import { log } from '../../support/log.js';
import type { Asker } from '../ask.js';
import type { BuiltChat } from '../chat.js';
import type { AppContext } from '../context.js';
import { loadRenderer } from '../render/draw-run.js';
import { formatError, formatWarning } from '../render/error.js';
import { attachMark } from '../render/symbols.js';
import { type Attachments, attachFromMessage, buildContent, emptyAttachments } from './attach/attach.js';
import { makeAttachEnv } from './attach/env.js';
import { findMistyped, mistypedWarning } from './attach/mistyped.js';
import { snapshot, usageSince } from './usage-delta.js';

/** What the REPL lends a message: its streams, chat, questions, Ctrl+C and drawing. */
export interface MessageHost {
  ctx: AppContext;
  /** Progress and notes (stderr). */
  write(text: string): void;
  loadChat(): Promise<BuiltChat>;
  asker(): Asker;
  stoppable<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T>;
  renderRun(
    run: AsyncGenerator<RunEvent, AgentResult>,
    usage: () => UsageTracker,
    started?: number,
  ): Promise<AgentResult>;
  /** Put text back on the prompt. */
  prefill(text: string): void;
  afterTurn(): void;
}

export class MessageSender {
  /** Files (and a pasted image) waiting for the next message. */
  private pending: Attachments = emptyAttachments();
  /** A message held back once for a mistyped file name: sent as it is when Enter is pressed again. */
  private heldTypo: string | undefined;
  /** A message held back once because none of its files could be attached. */
  private heldNoFiles: string | undefined;

  constructor(private readonly host: MessageHost) {}

  /** `📎 notes.md` (or `[FILE] notes.md` without colour): a file attached or waiting. */
  private note(line: string): void {
    const style = this.host.ctx.err;
    this.host.write(style.enabled ? `${style.dim(`${attachMark()} ${line}`)}\n` : `[FILE] ${line}\n`);
  }

  /** Send a message (with the files it names) and render the run. */
  async send(text: string): Promise<void> {
    if (this.heldBack(text)) return;
    const rendererReady = loadRenderer();
    const built = await this.host.loadChat();
    const { chat } = built;
    const before = snapshot(chat.deps.usage);
    const started = Date.now();
    try {
      await this.host.stoppable(async (signal) => {
        const style = this.host.ctx.err;
        const env = makeAttachEnv(
          this.host.ctx,
          built,
          {
            note: (line) => this.note(line),
            confirm: (question) => this.host.asker().yesNo(question, { signal, defaultYes: true }),
          },
          signal,
        );
        const { attachments, onlyFiles, found, attached } = await attachFromMessage(text, env, this.pending);
        // `@server:uri`: a resource of an MCP server, attached the same way.
        if (built.mcp && text.includes('@')) {
          const { attachResources } = await import('../mcp/resources.js');
          const blocks = await attachResources(text, built.mcp, (l) => this.note(l), signal);
          pushAll(attachments.documents, blocks);
        }
        if (signal.aborted) {
          this.host.write(formatWarning(t('repl.interrupted'), style));
          return;
        }
        const nothing = found > 0 && attached === 0 && attachments.names.length === 0;
        if (nothing && this.noneAttached(text, onlyFiles)) return;
        if (onlyFiles) {
          this.pending = attachments;
          this.host.write(`${style.dim(t('repl.attach.pending'))}\n`);
          return;
        }
        this.pending = emptyAttachments();
        // The addresses the person typed may be fetched without a question (not those in files).
        if (chat.deps.grants) grantTyped(chat.deps.grants, text);
        chat.deps.named?.addText(text);
        await rendererReady;
        const run = chat.send(buildContent(text, attachments), signal);
        await this.host.renderRun(run, () => usageSince(before, chat.deps.usage), started);
        this.host.afterTurn();
      });
    } catch (err) {
      log().error('message failed', err);
      this.host.write(
        formatError(toZhiError(err), this.host.ctx.err, {
          debug: this.host.ctx.args.flags.debug,
          inRepl: true,
        }),
      );
    }
  }

  /** Ctrl+V, /paste: the clipboard's image waits for the next message. */
  async pasteImage(): Promise<void> {
    const built = await this.host.loadChat();
    const style = this.host.ctx.err;
    const { pasteClipboardImage } = await import('./attach/paste.js');
    const attached = await pasteClipboardImage(this.host.ctx, built, this.pending, {
      note: (line) => this.note(line),
      confirm: (question) => this.host.asker().yesNo(question, { defaultYes: true }),
      warn: (line) => this.host.write(formatWarning(line, style)),
    });
    if (attached) this.host.write(`${style.dim(t('repl.attach.pending'))}\n`);
  }

  /**
   * Every file the message names failed to attach (missing, empty, binary, declined; each said
   * why): it goes back on the prompt rather than be sent, and paid for, without them. Sent as it
   * is when Enter is pressed again. True when it was held back.
   */
  private noneAttached(text: string, onlyFiles: boolean): boolean {
    if (onlyFiles) return true;
    if (text === this.heldNoFiles) {
      this.heldNoFiles = undefined;
      return false;
    }
    this.heldNoFiles = text;
    this.host.write(formatWarning(t('input.noneAttached'), this.host.ctx.err));
    this.host.prefill(text);
    return true;
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
    const home = this.host.ctx.env.HOME || homedir();
    const typo = findMistyped(text, { cwd: this.host.ctx.cwd, home, isFile: (p) => statSync(p).isFile() });
    if (!typo) return false;
    this.heldTypo = text;
    this.host.write(formatWarning(mistypedWarning(typo), this.host.ctx.err));
    this.host.prefill(text);
    return true;
  }
}
