/**
 * A conversation's state: its messages and the settings that can change between turns (/model,
 * /auto, /think). Made first and shared: the chat changes it, the session wiring records it, and
 * neither has to know the other to do so.
 */
import type { Effort } from '../llm/models.js';
import type { Message } from '../llm/types.js';
import type { PermissionMode } from './permissions.js';

export interface ChatSettings {
  model: string;
  thinking: boolean;
  /** Thinking effort (`/think high`, `thinking_effort`); unset = the model's default. */
  effort?: Effort;
  mode: PermissionMode;
  maxTurns: number;
  systemPrompt: string;
  /** The project instruction files read into the system prompt (shown by /status). */
  instructionFiles?: string[];
}

export interface Conversation {
  readonly messages: Message[];
  readonly settings: ChatSettings;
}

/** A new conversation: only the system prompt, with its own copy of the settings. */
export function newConversation(settings: ChatSettings): Conversation {
  return { messages: [{ role: 'system', content: settings.systemPrompt }], settings: { ...settings } };
}
