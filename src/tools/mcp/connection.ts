/**
 * One MCP server: started with the official SDK (loaded only here, on first use) over stdio or
 * streamable HTTP, its tools listed, calls made. A server that stops is restarted once; when it
 * stops again it is `failed` and its tools go away.
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Language } from '../../support/i18n/index.js';
import type { McpServerConfig } from '../../support/mcp-config.js';
import { ToolError } from '../types.js';
import type { CallResultLike } from './convert.js';
import { mcpCause, withStderr } from './errors.js';
import type { McpPromptInfo, McpToolInfo } from './listing.js';
import { newClient, promptInfos, toolInfos } from './listing.js';
import { ZhiOAuthProvider } from './oauth.js';
import {
  fallsBackToSse,
  firstKind,
  httpTransport,
  stdioTransport,
  type TransportKind,
  usesOAuth,
} from './transports.js';

export type { McpPromptInfo, McpToolInfo } from './listing.js';

export type McpState = 'idle' | 'starting' | 'ready' | 'stopped' | 'failed';

const DEFAULT_START_S = 30;
/** A tool call that does not answer in this long is abandoned (per server: `call_timeout`). */
export const DEFAULT_CALL_TIMEOUT_S = 120;
/** The SDK's error code for a request that got no answer in time. */
const REQUEST_TIMEOUT = -32001;
const STDERR_KEPT = 2000;
/** The SDK's error code for a connection that closed under a request. */
const CONNECTION_CLOSED = -32000;

export class McpConnection {
  state: McpState = 'idle';
  tools: McpToolInfo[] = [];
  /** What the server offers beside tools (its capabilities at start). */
  offers = { resources: false, prompts: false };
  prompts: McpPromptInfo[] = [];
  error: string | undefined;
  restarts = 0;
  private client: Client | undefined;
  private starting: Promise<void> | undefined;
  private stderr = '';
  /** What made the start fail, to explain it again in English for the model. */
  private failure: unknown;

  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
    private readonly cwd: string,
    /** Told when the server stopped for good (its tools must disappear). */
    private readonly onFailed: (c: McpConnection) => void = () => undefined,
    /** Told when the server's tools or prompts changed while it was up. */
    private readonly onChanged: (c: McpConnection) => void = () => undefined,
  ) {}

  /** The client being connected (closed if the start fails). */
  private opening: Client | undefined;
  /** The transport it came up on (`sse` after a fallback). */
  private kind: TransportKind | undefined;

  get transport(): TransportKind {
    return this.kind ?? firstKind(this.config);
  }

  /** Start (once; later calls wait for the same start). Never throws: failure is `state`/`error`. */
  start(): Promise<void> {
    this.starting ??= this.connect().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async connect(): Promise<void> {
    this.state = 'starting';
    this.error = undefined;
    const timeout = (this.config.timeout ?? DEFAULT_START_S) * 1000;
    this.opening = undefined;
    try {
      const made = await this.open(timeout);
      const listed = await made.listTools(undefined, { timeout });
      const caps = made.getServerCapabilities();
      this.offers = { resources: Boolean(caps?.resources), prompts: Boolean(caps?.prompts) };
      // Its prompts are listed at start: they become slash commands. A failure leaves none.
      this.prompts = caps?.prompts
        ? await made
            .listPrompts(undefined, { timeout })
            .then((r) => promptInfos(r.prompts))
            .catch(() => [])
        : [];
      this.tools = toolInfos(listed.tools, this.config);
      this.client = made;
      this.state = 'ready';
    } catch (err) {
      this.state = 'failed';
      this.error = this.explain(err);
      this.failure = err;
      // A server that did not finish starting is stopped, not left running.
      const opening = this.opening as Client | undefined;
      await opening?.close().catch(() => undefined);
      this.client = undefined;
    }
  }

  /** A re-read of the server's lists under way (list_changed): searches and calls wait for it. */
  refreshing: Promise<void> | undefined;

  /** The server said a list changed: read it again, then tell the manager (a failed read keeps the old list). */
  private relist(read: (c: Client) => Promise<void>): void {
    const client = this.client;
    if (!client || this.state !== 'ready') return;
    const previous = this.refreshing ?? Promise.resolve();
    const now = previous
      .then(() => read(client))
      .then(
        () => this.onChanged(this),
        () => undefined,
      )
      .finally(() => {
        if (this.refreshing === now) this.refreshing = undefined;
      });
    this.refreshing = now;
  }

  /** Saved OAuth sign-ins (a file in the config folder), for an address that needs one. */
  oauthFile: string | undefined;

  private authProvider(): OAuthClientProvider | undefined {
    if (!this.oauthFile || !usesOAuth(this.config)) return undefined;
    return new ZhiOAuthProvider(this.oauthFile, this.name, this.config.url!);
  }

  /** A client connected over the server's transport (SSE after a streamable-HTTP 4xx, see transports.ts). */
  private async open(timeout: number): Promise<Client> {
    const first = firstKind(this.config);
    try {
      return await this.openWith(first, timeout);
    } catch (err) {
      if (!fallsBackToSse(this.config, err)) throw err;
      await this.opening?.close().catch(() => undefined);
      try {
        return await this.openWith('sse', timeout);
      } catch {
        // Neither spoke MCP: the streamable-HTTP answer says more.
        throw err;
      }
    }
  }

  private async openWith(kind: TransportKind, timeout: number): Promise<Client> {
    const client = await newClient(this.cwd, {
      tools: () =>
        this.relist(async (c) => {
          this.tools = toolInfos((await c.listTools(undefined, { timeout })).tools, this.config);
        }),
      prompts: () =>
        this.relist(async (c) => {
          this.prompts = promptInfos((await c.listPrompts(undefined, { timeout })).prompts);
        }),
    });
    this.stderr = '';
    const transport =
      kind === 'stdio'
        ? await stdioTransport(this.config, this.cwd, (text) => {
            this.stderr = (this.stderr + text).slice(-STDERR_KEPT);
          })
        : await httpTransport(this.config, kind, this.authProvider());
    client.onclose = () => this.closed(client);
    this.opening = client;
    await client.connect(transport, { timeout });
    this.kind = kind;
    return client;
  }

  private closed(client: Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    if (this.state === 'ready') this.state = 'stopped';
  }

  /** Why it failed, in words (the person's language unless `lang`), with the server's last stderr lines. */
  private explain(err: unknown, lang?: Language): string {
    const cause = mcpCause(err, this.config, this.config.timeout ?? DEFAULT_START_S, lang);
    return withStderr(cause, this.stderr, lang);
  }

  /** Why the start failed, in `lang` (English for the model). */
  failureText(lang?: Language): string {
    return this.failure !== undefined ? this.explain(this.failure, lang) : (this.error ?? 'failed');
  }

  /** Call one of the server's tools (the raw result); a server that stopped mid-call is a clear tool error. */
  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallResultLike> {
    if (this.state === 'stopped') await this.restart();
    if (this.state === 'idle') await this.start();
    const client = this.client;
    if (this.state !== 'ready' || !client) {
      const why = this.failure !== undefined ? this.explain(this.failure, 'en') : this.error;
      throw new ToolError(`The MCP server "${this.name}" is not running${why ? `: ${why}` : ''}.`);
    }
    const seconds = this.config.call_timeout ?? DEFAULT_CALL_TIMEOUT_S;
    // The SDK adds a listener to the signal of every call and never removes it: each call gets
    // its own signal, so a long run does not pile listeners on the run's (MaxListenersExceeded).
    const linked = linkedSignal(signal);
    try {
      return (await client.callTool({ name: tool, arguments: args }, undefined, {
        signal: linked.signal,
        timeout: seconds * 1000,
      })) as CallResultLike;
    } catch (err) {
      if (signal.aborted) throw err;
      if ((err as { code?: number }).code === REQUEST_TIMEOUT) {
        throw new ToolError(
          `The MCP server "${this.name}" did not answer ${tool} within ${seconds} s, so the call was abandoned. Do not call it again with the same arguments; the person can set call_timeout for this server if it needs longer.`,
          { key: 'mcp.callTimeout', params: { server: this.name, tool, seconds } },
        );
      }
      const closed = (err as { code?: number }).code === CONNECTION_CLOSED;
      if (this.client === client && this.state === 'ready' && !closed) {
        throw new ToolError(`The MCP server "${this.name}" reported an error: ${this.explain(err, 'en')}`);
      }
      if (this.client === client) this.closed(client);
      // The server stopped during the call.
      const why = this.explain(err, 'en');
      await this.restart();
      const after =
        this.state === 'ready'
          ? 'zhi restarted it; the call was not repeated.'
          : `it could not be restarted, so its tools are gone for this session${this.error ? ` (${this.error})` : ''}.`;
      throw new ToolError(`The MCP server "${this.name}" stopped while running ${tool} (${why}); ${after}`);
    } finally {
      linked.release();
    }
  }

  /** The client of a running server (started or restarted first), or a clear error for the model. */
  async ready(): Promise<Client> {
    if (this.state === 'stopped') await this.restart();
    if (this.state === 'idle' || this.state === 'starting') await this.start();
    if (this.state !== 'ready' || !this.client) {
      const why = this.failure !== undefined ? this.explain(this.failure, 'en') : this.error;
      throw new ToolError(`The MCP server "${this.name}" is not running${why ? `: ${why}` : ''}.`);
    }
    return this.client;
  }

  /** Seconds a request of this server may take (a tool call, a resource read). */
  get callTimeoutMs(): number {
    return (this.config.call_timeout ?? DEFAULT_CALL_TIMEOUT_S) * 1000;
  }

  /** Restart a stopped server once; the second time it stops, it is failed for good. */
  private async restart(): Promise<void> {
    if (this.restarts >= 1) {
      this.state = 'failed';
      this.error ??= 'it stopped twice';
      this.onFailed(this);
      return;
    }
    this.restarts += 1;
    await this.start();
    if (this.state !== 'ready') this.onFailed(this);
  }

  async close(): Promise<void> {
    const client = this.client;
    // A server still starting (in the background) is stopped too, not left running unowned.
    const opening = this.state === 'starting' ? this.opening : undefined;
    this.client = undefined;
    if (this.state === 'ready') this.state = 'idle';
    await Promise.all([client, opening].map((c) => c?.close().catch(() => undefined)));
  }
}

/**
 * Signals that follow one parent: however many calls run at once under one run's signal, the
 * parent has one listener, which aborts the calls still running; a finished call leaves nothing.
 */
const followers = new WeakMap<AbortSignal, Set<AbortController>>();

export function linkedSignal(parent: AbortSignal): { signal: AbortSignal; release(): void } {
  const own = new AbortController();
  if (parent.aborted) own.abort(parent.reason);
  let set = followers.get(parent);
  if (!set) {
    const created = new Set<AbortController>();
    set = created;
    followers.set(parent, created);
    parent.addEventListener(
      'abort',
      () => {
        for (const c of created) c.abort(parent.reason);
      },
      { once: true },
    );
  }
  set.add(own);
  const kept = set;
  return { signal: own.signal, release: () => kept.delete(own) };
}
