import type { ContentPart, Message } from '../llm/types.js';
import { imageSafe, modelForTurn } from '../llm/vision.js';
import { t } from '../support/i18n/index.js';
import { ToolRegistry } from '../tools/registry.js';
import type { ChatSettings, Conversation } from './conversation.js';
import { elideEarlierResults } from './elide.js';
import type { AgentResult, RunConsumer, RunEvent } from './events.js';
import { type AgentDeps, runAgent } from './loop.js';
import type { SessionWiring } from './sessions/wiring.js';

export type { ChatSettings, Conversation } from './conversation.js';

export interface ChatOptions {
  /**
   * Given every event of every turn before it is yielded (the session file and ledger, the run
   * budget, the compactor), so they see every mode the same way whoever draws the stream.
   */
  consumers?: RunConsumer[];
  /** Session file, ledger, compaction and budget: its hooks join the deps, its consumer the consumers. */
  session?: SessionWiring;
  /**
   * Work before each message's run (MCP servers start with the first message that may need
   * them); what it returns is shown as warnings.
   */
  prepare?: () => Promise<string[]>;
  /** Warnings of work that went on during the run (an MCP server that failed in the background). */
  afterRun?: () => string[];
}

/**
 * A conversation: the messages, the settings that can change between turns (/model, /auto,
 * /think), and `send()`, which runs the agent loop for one user message and yields its RunEvents,
 * from `user` to `done`. The REPL, one-shot and pipe modes all talk through this.
 */
export class ChatSession {
  readonly messages: Message[];
  /** What the person typed for messages worded for the model (a `!command`), for /undo. */
  private readonly typed = new WeakMap<Message, string>();
  readonly settings: ChatSettings;
  /** Built before the chat and never reassigned (the REPL passes its prompter in, too). */
  readonly deps: Readonly<AgentDeps>;
  readonly session: SessionWiring | undefined;
  private readonly consumers: RunConsumer[];
  private readonly prepare: (() => Promise<string[]>) | undefined;
  private readonly afterRun: (() => string[]) | undefined;

  /**
   * `conversation` is made first (newConversation) and shared with the session wiring, which
   * records it; the wiring is handed in whole, never handed the chat.
   */
  constructor(deps: AgentDeps, conversation: Conversation, o: ChatOptions = {}) {
    this.settings = conversation.settings;
    this.session = o.session;
    this.deps = o.session ? { ...deps, ...o.session.hooks() } : deps;
    this.consumers = [...(o.session ? [o.session.consume] : []), ...(o.consumers ?? [])];
    this.prepare = o.prepare;
    this.afterRun = o.afterRun;
    this.messages = conversation.messages;
  }

  /** Hand an event to the consumers (also used for work done between turns, such as /compact). */
  consume(ev: RunEvent): RunEvent {
    for (const c of this.consumers) {
      try {
        c(ev);
      } catch {
        // A consumer (a full disk under the session file) must not break the conversation.
      }
    }
    return ev;
  }

  /** Run one user message through the agent loop, yielding its events. */
  async *send(content: string | ContentPart[], signal?: AbortSignal): AsyncGenerator<RunEvent, AgentResult> {
    const user: Message = { role: 'user', content };
    // Large file pages of earlier turns are not sent again (the model can read them again).
    elideEarlierResults(this.messages, this.deps.tools);
    this.messages.push(user);
    yield this.consume({ type: 'user', message: user });
    for (const message of (await this.prepare?.()) ?? []) yield this.consume({ type: 'warning', message });
    // A message with images goes to a vision model; text models never receive image parts.
    const turn = modelForTurn(this.settings.model, content);
    if (turn.switched) {
      const notes = [t('vision.switch', { from: this.settings.model, model: turn.model })];
      if (!turn.tools) notes.push(t('vision.noTools', { model: turn.model }));
      for (const message of notes) yield this.consume({ type: 'warning', message });
    }
    const deps = {
      ...this.deps,
      llm: imageSafe(this.deps.llm),
      ...(turn.tools ? {} : { tools: new ToolRegistry() }),
    };
    const run = runAgent(this.messages, deps, {
      model: turn.model,
      thinking: this.settings.thinking,
      ...(this.settings.effort ? { effort: this.settings.effort } : {}),
      maxTurns: this.settings.maxTurns,
      mode: this.settings.mode,
      ...(signal ? { signal } : {}),
    });
    let step = await run.next();
    while (!step.done) {
      // Stopped (Ctrl+C): the partial answer is saved just after the prompt is back, not before.
      if (signal?.aborted) this.session?.recorder.deferWrites();
      yield this.consume(step.value);
      step = await run.next();
    }
    // A message that failed before any answer (a network error) leaves the context: sending it
    // again (Up, Enter) must not put it there twice.
    if (step.value.stopReason === 'error' && this.messages.at(-1) === user) {
      this.messages.pop();
      this.session?.recorder.recordCut();
    }
    // The person's after_turn hooks hear how the turn ended (what they print for the person is shown).
    const heard = await this.deps.runHook?.({
      event: 'after_turn',
      stop_reason: step.value.stopReason,
      answer: step.value.text,
    });
    for (const message of heard?.notes ?? []) yield this.consume({ type: 'warning', message });
    for (const message of this.afterRun?.() ?? []) yield this.consume({ type: 'warning', message });
    yield this.consume({ type: 'done', result: step.value });
    return step.value;
  }

  /**
   * Add a message the person produced without the model (the output of a `!command` they ran):
   * it joins the context and the session file, and the next message can refer to it. `typed` is
   * what the person typed (the session's title), as `message` is worded for the model.
   */
  note(message: Message, typed?: string): void {
    this.messages.push(message);
    if (typed) this.typed.set(message, typed);
    this.consume({ type: 'user', message, note: true, ...(typed ? { typed } : {}) });
  }

  /** What the person typed for a message noted with `note` (`!rm notes.txt`), not the model's wording. */
  typedOf(message: Message): string | undefined {
    return this.typed.get(message);
  }

  /** Remove the last exchange (the last user message and everything after it). Returns false if none. */
  undo(): boolean {
    for (let i = this.messages.length - 1; i > 0; i--) {
      if (this.messages[i]!.role === 'user') {
        this.messages.splice(i);
        this.session?.recorder.recordCut();
        return true;
      }
    }
    return false;
  }

  /** Start over with only the system prompt. */
  reset(): void {
    this.messages.splice(1);
  }
}
