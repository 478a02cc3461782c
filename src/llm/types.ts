/** Wire-level message shapes (reference §2.2) and the client's event stream (design §1). */
import type { ApiErrorKind } from '../support/errors.js';
import type { ModelInfo } from './model-types.js';

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export interface SystemMessage {
  role: 'system';
  content: string;
}
export interface UserMessage {
  role: 'user';
  content: string | ContentPart[];
}
export interface AssistantMessage {
  role: 'assistant';
  content: string;
  reasoning_content?: string;
  tool_calls?: ToolCall[];
}
export interface ToolMessage {
  role: 'tool';
  content: string;
  tool_call_id: string;
}
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

export interface ToolSchema {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  cachedTokens: number;
  reasoningTokens: number;
  /** Answered through the Batch API (billed at the batch price). */
  batch?: boolean;
}

export const ZERO_USAGE: Usage = {
  promptTokens: 0,
  completionTokens: 0,
  totalTokens: 0,
  cachedTokens: 0,
  reasoningTokens: 0,
};

export type FinishReason =
  | 'stop'
  | 'tool_calls'
  | 'length'
  | 'sensitive'
  | 'network_error'
  | 'model_context_window_exceeded'
  | 'unknown';

export interface ChatRequest {
  model: string;
  messages: Message[];
  tools?: ToolSchema[];
  /** Sent explicitly: the API defaults to enabled, so "off" must be said. */
  thinking: boolean;
  /** `reasoning_effort`, sent only where the model takes it and thinking is on. */
  effort?: 'low' | 'medium' | 'high' | 'max';
  maxTokens?: number;
  temperature?: number;
  requestId?: string;
  signal?: AbortSignal;
}

/** The kinds a failed call ends with: written once, in support/errors.ts, with zhi's own kinds. */
export type { ApiErrorKind };

export interface ApiErrorInfo {
  kind: ApiErrorKind;
  /** HTTP status, when there was a response. */
  status?: number;
  /** Business code from the body (`"1113"`), as a string. */
  code?: string;
  /** The server's message, verbatim. */
  message: string;
  retryable: boolean;
  /** When a usage window resets (1308 gives it in the message). */
  resetAt?: string;
  /** The address that answered (for a wrong base URL), or that could not be reached. */
  url?: string;
  /** Why a request got no answer at all (kind `network`), read from the socket or TLS error. */
  network?: NetworkCause;
  /** The proxy the request went through, when one is configured. */
  proxy?: string;
}

export type NetworkCause =
  | 'refused'
  | 'not_found'
  | 'timeout'
  | 'reset'
  | 'unreachable'
  | 'certificate'
  | 'proxy'
  | 'bad_port'
  | 'other';

export type StreamEvent =
  | { type: 'text_delta'; text: string }
  | { type: 'thinking_delta'; text: string }
  | { type: 'tool_call_start'; index: number; id: string; name: string }
  | { type: 'retry'; attempt: number; maxRetries: number; delayMs: number; error: ApiErrorInfo }
  /** Something the person should know that did not stop the call (a repaired stream, a learned capability). */
  | { type: 'warning'; code: StreamWarningCode; model: string }
  | { type: 'done'; message: AssistantMessage; finishReason: FinishReason; usage: Usage; model: string }
  | { type: 'error'; error: ApiErrorInfo; partial: AssistantMessage; usage?: Usage };

export type StreamWarningCode = 'stream_repaired' | 'stream_damaged' | 'thinking_forced' | 'unknown_model';

/** What the agent needs from a model client: one streaming call that never throws. */
export interface LlmClient {
  stream(req: ChatRequest): AsyncIterable<StreamEvent>;
}

/**
 * The platform as the rest of zhi sees it: chat (streamed, or whole for a key check) and the
 * one authenticated request path every other endpoint uses. Code outside llm/ depends on this,
 * never on a concrete client class.
 */
export interface PlatformClient extends LlmClient {
  readonly baseUrl: string;
  readonly http: PlatformRequests;
  complete(req: ChatRequest): Promise<Extract<StreamEvent, { type: 'done' | 'error' }>>;
  /** The wire body of a chat request (a Batch API line carries it). */
  body(req: ChatRequest, stream: boolean): Record<string, unknown>;
  /** The registry's facts about a model with what this client learned about it (it always thinks). */
  modelInfo(id: string): ModelInfo;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: ApiErrorInfo };

export interface RetryNotice {
  attempt: number;
  maxRetries: number;
  delayMs: number;
  error: ApiErrorInfo;
}

export interface PlatformRequest {
  /** Path under the base URL, starting with `/`. */
  path: string;
  method?: 'GET' | 'POST' | 'DELETE';
  /** A JSON body (sent as UTF-8 JSON). */
  json?: unknown;
  /** A raw body with its content type (multipart uploads). */
  body?: Uint8Array | string;
  contentType?: string;
  accept?: string;
  signal?: AbortSignal;
  /** A total time limit for one attempt (undefined: none; streams use their own idle timer). */
  timeoutMs?: number;
  /** Retry retryable failures (default true). */
  retry?: boolean;
  onRetry?(notice: RetryNotice): void;
}

/**
 * The one authenticated request path to the platform (platform-http.ts implements it): every
 * endpoint other than chat goes through it, with the same retries, limits and error mapping.
 */
export interface PlatformRequests {
  readonly baseUrl: string;
  /** Open a connection ahead of a request (no request is sent); false when it could not. */
  preconnect(): Promise<boolean>;
  /** The delay before retry number `attempt + 1` (ms), by the client's backoff policy. */
  backoff(attempt: number): number;
  send(req: PlatformRequest): Promise<Outcome<Response>>;
  text(req: PlatformRequest): Promise<Outcome<string>>;
  json<T>(req: PlatformRequest): Promise<Outcome<T>>;
}
