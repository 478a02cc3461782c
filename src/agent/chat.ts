import type { ContentPart, Message } from '../llm/types.js';
import { imageSafe, modelForTurn } from '../llm/vision.js';
import { t } from '../support/i18n/index.js';
import { ToolRegistry } from '../tools/registry.js';
import type { AgentEvent, AgentResult } from './events.js';
import { type AgentDeps, runAgent } from './loop.js';
import type { PermissionMode } from './permissions.js';

export interface ChatSettings {
  model: string;
  thinking: boolean;
  mode: PermissionMode;
  maxTurns: number;
  systemPrompt: string;
  /** The model for messages with images when `model` cannot see (default glm-4.6v-flash). */
  visionModel?: string;
}

/** Something that wants every event of a conversation (session file, usage ledger, tests). */
export type ChatObserver = (ev: AgentEvent | { type: 'user'; message: Message }) => void;

/**
 * A conversation: the messages, the settings that can change between turns (/model, /auto,
 * /think), and `send()`, which runs the agent loop for one user message. The REPL, one-shot and
 * pipe modes all talk through this, so observers (sessions, ledgers) see every mode the same way.
 */
export class ChatSession {
  readonly messages: Message[];
  readonly settings: ChatSettings;
  private readonly observers: ChatObserver[] = [];

  constructor(
    readonly deps: AgentDeps,
    settings: ChatSettings,
    history?: Message[],
  ) {
    this.settings = { ...settings };
    this.messages = history?.length ? [...history] : [{ role: 'system', content: settings.systemPrompt }];
  }

  observe(observer: ChatObserver): () => void {
    this.observers.push(observer);
    return () => {
      const i = this.observers.indexOf(observer);
      if (i >= 0) this.observers.splice(i, 1);
    };
  }

  private notify(ev: Parameters<ChatObserver>[0]): void {
    for (const o of this.observers) {
      try {
        o(ev);
      } catch {
        // An observer (a full disk under the session file) must not break the conversation.
      }
    }
  }

  /** Run one user message through the agent loop, yielding its events. */
  async *send(
    content: string | ContentPart[],
    signal?: AbortSignal,
  ): AsyncGenerator<AgentEvent, AgentResult> {
    const user: Message = { role: 'user', content };
    this.messages.push(user);
    this.notify({ type: 'user', message: user });
    // A message with images goes to a vision model; text models never receive image parts.
    const turn = modelForTurn(this.settings.model, content, this.settings.visionModel);
    if (turn.switched) {
      const notes = [t('vision.switch', { from: this.settings.model, model: turn.model })];
      if (!turn.tools) notes.push(t('vision.noTools', { model: turn.model }));
      for (const message of notes) {
        this.notify({ type: 'warning', message });
        yield { type: 'warning', message };
      }
    }
    const deps = {
      ...this.deps,
      llm: imageSafe(this.deps.llm),
      ...(turn.tools ? {} : { tools: new ToolRegistry() }),
    };
    const run = runAgent(this.messages, deps, {
      model: turn.model,
      thinking: this.settings.thinking,
      maxTurns: this.settings.maxTurns,
      mode: this.settings.mode,
      ...(signal ? { signal } : {}),
    });
    let step = await run.next();
    while (!step.done) {
      this.notify(step.value);
      yield step.value;
      step = await run.next();
    }
    this.notify({ type: 'done', result: step.value });
    return step.value;
  }

  /**
   * Add a message the person produced without the model (the output of a `!command` they ran):
   * it joins the context and the session file, and the next message can refer to it.
   */
  note(message: Message): void {
    this.messages.push(message);
    this.notify({ type: 'user', message });
  }

  /** Remove the last exchange (the last user message and everything after it). Returns false if none. */
  undo(): boolean {
    for (let i = this.messages.length - 1; i > 0; i--) {
      if (this.messages[i]!.role === 'user') {
        this.messages.splice(i);
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
