/**
 * One MCP server: started with the official SDK (loaded only here, on first use) over stdio or
 * streamable HTTP, its tools listed, calls made. A server that stops is restarted once; when it
 * stops again it is `failed` and its tools go away.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { apiFetch } from '../../llm/http.js';
import type { Language } from '../../support/i18n/index.js';
import type { McpServerConfig } from '../../support/mcp-config.js';
import { ToolError } from '../types.js';
import type { CallResultLike, ToolHints } from './convert.js';
import { mcpCause, withStderr } from './errors.js';
import { newClient, promptInfos, toolInfos } from './listing.js';

export type McpState = 'idle' | 'starting' | 'ready' | 'stopped' | 'failed';

/** A prompt the server offers (a slash command in the chat: `/mcp__<server>__<name>`). */
export interface McpPromptInfo {
  name: string;
  description?: string;
  arguments: { name: string; description?: string; required?: boolean }[];
}

export interface McpToolInfo {
  name: string;
  description?: string;
  inputSchema: unknown;
  /** Its annotations, as far as they count (`annotations:` of the server's entry). */
  hints: ToolHints;
}

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

  get transport(): 'stdio' | 'http' {
    return this.config.url ? 'http' : 'stdio';
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
    let client: Client | undefined;
    try {
      client = await newClient(this.cwd, {
        tools: () =>
          this.relist(async (c) => {
            this.tools = toolInfos((await c.listTools(undefined, { timeout })).tools, this.config);
          }),
        prompts: () =>
          this.relist(async (c) => {
            this.prompts = promptInfos((await c.listPrompts(undefined, { timeout })).prompts);
          }),
      });
      const made = client;
      const transport = await this.makeTransport();
      made.onclose = () => this.closed(made);
      await made.connect(transport, { timeout });
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
      await client?.close().catch(() => undefined);
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

  private async makeTransport() {
    if (this.config.url) {
      const { StreamableHTTPClientTransport } = await import(
        '@modelcontextprotocol/sdk/client/streamableHttp.js'
      );
      // Through the same fetch as zhi's API calls: HTTPS_PROXY, HTTP_PROXY and NO_PROXY apply.
      return new StreamableHTTPClientTransport(new URL(this.config.url), {
        requestInit: { headers: this.config.headers ?? {} },
        fetch: (url, init) => apiFetch(String(url), init ?? {}),
      });
    }
    const { StdioClientTransport, getDefaultEnvironment } = await import(
      '@modelcontextprotocol/sdk/client/stdio.js'
    );
    // The server gets a plain environment (PATH, HOME…), the proxy settings (an `npx -y` server
    // downloads itself through them) and its own settings, never zhi's key.
    const transport = new StdioClientTransport({
      command: this.config.command!,
      args: this.config.args ?? [],
      env: { ...getDefaultEnvironment(), ...proxyEnvironment(process.env), ...(this.config.env ?? {}) },
      cwd: this.cwd,
      stderr: 'pipe',
    });
    this.stderr = '';
    transport.stderr?.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString('utf8')).slice(-STDERR_KEPT);
    });
    return transport;
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
    this.client = undefined;
    if (this.state === 'ready') this.state = 'idle';
    await client?.close().catch(() => undefined);
  }
}

/** The proxy variables, in both spellings tools read, that the SDK's plain environment leaves out. */
const PROXY_VARS = ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'ALL_PROXY'];

export function proxyEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of PROXY_VARS) {
    for (const key of [name, name.toLowerCase()]) {
      const value = env[key];
      if (value) out[key] = value;
    }
  }
  return out;
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
