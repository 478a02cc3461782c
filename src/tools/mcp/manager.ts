/**
 * The MCP servers of a chat or a skill run: started together (lazily, on the first message that
 * may need them), their tools offered as `<server>__<tool>`, their state for `/mcp` and
 * `zhi mcp list`. A server that fails to start is reported and left out; the others work.
 */
import type { PlatformClient } from '../../llm/types.js';
import { t } from '../../support/i18n/index.js';
import type { McpServerConfig } from '../../support/mcp-config.js';
import { visible } from '../../support/sanitize.js';
import { untrusted, untrustedLine } from '../../support/untrusted.js';
import type { PendingTools, ToolRegistry } from '../registry.js';
import { offerToolSearch, type ToolGroup } from '../tool-search/tool-search.js';
import type { AnyTool } from '../types.js';
import { mcpAssess, mcpLabel, mcpPreview } from './approval.js';
import { McpConnection, type McpState } from './connection.js';
import {
  MCP_ARGS,
  MCP_SEPARATOR,
  mcpKind,
  mcpToolName,
  ON_SEARCH,
  resultImages,
  resultText,
} from './convert.js';
import { promptCommand, promptText, type ServerPrompt } from './prompts.js';
import { RESOURCE_TOOL, type ResourceRead, readResource, resourceTool } from './resources.js';
import { cutAtWord, glmSchema, MAX_TOOL_DESCRIPTION } from './schema.js';
import type { TransportKind } from './transports.js';
import { describeImages, visionModelFor } from './vision.js';

export interface McpStatus {
  name: string;
  state: McpState;
  transport: TransportKind;
  trust: McpServerConfig['trust'];
  /** Tool names as the model sees them. */
  tools: string[];
  error?: string;
  restarts: number;
}

export interface McpOptions {
  /** Where images the tools return are described (see vision.ts); without it they are only noted. */
  client?: PlatformClient | undefined;
  /** The model of the conversation now: images go to it when it can see. */
  chatModel?: () => string | undefined;
  /**
   * Defer the servers' tools (found through tool_search, see tools/tool-search): always in a
   * chat; a skill run defers only past DEFER_OVER tools (it asked for its servers by name).
   */
  defer?: boolean | 'auto';
  /** Where OAuth sign-ins are kept (`zhi mcp login`); without it, no OAuth. */
  oauthFile?: string;
}

/** A skill run sends up to this many MCP tools' schemas with every request; more are deferred. */
export const DEFER_OVER = 20;

export class McpManager {
  readonly connections: McpConnection[];
  private readonly registered = new Map<string, string[]>();
  /** Servers whose failure the person was told about. */
  private readonly reported = new Set<string>();

  constructor(
    servers: Record<string, McpServerConfig>,
    private readonly cwd: string,
    private readonly registry?: ToolRegistry,
    private readonly options: McpOptions = {},
  ) {
    this.connections = Object.entries(servers).map(([name, config]) => this.connection(name, config));
  }

  private connection(name: string, config: McpServerConfig): McpConnection {
    const c = new McpConnection(
      name,
      config,
      this.cwd,
      (c) => this.drop(c),
      (c) => this.relist(c),
    );
    c.oauthFile = this.options.oauthFile;
    return c;
  }

  /**
   * Start every server not started yet (in parallel); returns one line per server that failed.
   * Each server's tools join the registry as soon as it is up, not when the slowest is.
   */
  async start(names?: string[]): Promise<string[]> {
    const wanted = this.connections.filter((c) => !names || names.includes(c.name));
    const starts = wanted.map(async (c) => {
      if (c.state === 'idle' || c.state === 'starting') await c.start();
      if (c.state === 'ready') this.offer(c);
      this.offerSearch();
    });
    this.offerSearch();
    await Promise.all(starts);
    return wanted.filter((c) => c.state === 'failed').map((c) => `${c.name}: ${c.error ?? 'failed'}`);
  }

  /**
   * Start the servers without waiting for them (a chat: its first message goes out at once). The
   * registry learns they are pending: tool_search, or a call of one of their tools, waits then.
   */
  startInBackground(): void {
    if (this.registry) this.registry.pending = this.pending();
    void this.start();
  }

  /** More servers (a project's, once the person allowed them): started as the others were. */
  add(servers: Record<string, McpServerConfig>): Promise<string[]> {
    const fresh = Object.entries(servers).filter(([name]) => !this.connections.some((c) => c.name === name));
    for (const [name, config] of fresh) this.connections.push(this.connection(name, config));
    return this.start(fresh.map(([name]) => name));
  }

  /** Servers that failed and were not reported yet, as `<server>: <why>` lines (each said once). */
  newFailures(): string[] {
    const out: string[] = [];
    for (const c of this.connections) {
      if (c.state !== 'failed' || this.reported.has(c.name)) continue;
      this.reported.add(c.name);
      out.push(`${c.name}: ${c.error ?? 'failed'}`);
    }
    return out;
  }

  private pending(): PendingTools {
    // Starting, or reading its lists again after list_changed.
    const busy = () => this.connections.filter((c) => c.state === 'starting' || c.refreshing);
    return {
      starting: () => busy().map((c) => c.name),
      settle: async (tool) => {
        const waited = busy().filter((c) => !tool || tool.startsWith(`${c.name}${MCP_SEPARATOR}`));
        await this.start(waited.map((c) => c.name));
        await Promise.all(waited.map((c) => c.refreshing));
        const failed = this.connections.filter((c) => c.state === 'failed');
        return {
          warnings: this.newFailures().map((line) => t('mcp.warn.notStarted', { problem: line })),
          failed: failed.map((c) => `the MCP server "${c.name}" did not start (${c.failureText('en')})`),
        };
      },
    };
  }

  /** The zhi tools of a ready server. */
  toolsOf(c: McpConnection, deferred = false): AnyTool[] {
    const resources = c.offers.resources ? [resourceTool(c, deferred)] : [];
    return [...this.serverTools(c, deferred), ...resources];
  }

  private serverTools(c: McpConnection, deferred: boolean): AnyTool[] {
    const reader = c.offers.resources ? mcpToolName(c.name, RESOURCE_TOOL) : undefined;
    return c.tools.map((info) => {
      const name = mcpToolName(c.name, info.name);
      // A server's text reaches the model and the screen: control, bidi and invisible characters shown, not kept.
      // Marked as the server's own words: data, not instructions (support/untrusted.ts).
      const description = untrustedLine(
        visible(cutAtWord(info.description ?? info.name, MAX_TOOL_DESCRIPTION), { keepNewlines: true }),
        `MCP server "${c.name}"`,
      );
      const tool: AnyTool = {
        name,
        description,
        schema: MCP_ARGS,
        parameters: glmSchema(info.inputSchema),
        kind: mcpKind(c.config.trust, info.hints),
        ...(deferred ? { traits: ON_SEARCH } : {}),
        // The arguments leave for the server: asked about unless its config says `egress: true`.
        egress: (args: Record<string, unknown>) => [
          {
            kind: 'args',
            text: JSON.stringify(args),
            to: `MCP ${c.name}`,
            trusted: c.config.egress === true,
          },
        ],
        label: (args: Record<string, unknown>) => mcpLabel(c.name, info.name, args, this.cwd),
        preview: (args: Record<string, unknown>, ctx) =>
          mcpPreview(c.name, info.name, args, ctx?.cwd ?? this.cwd, info.hints),
        assess: (args: Record<string, unknown>, ctx) =>
          mcpAssess(name, { server: c.name, tool: info.name, hints: info.hints }, args, ctx.cwd),
        execute: async (args: Record<string, unknown>, ctx) => {
          const r = await c.call(info.name, args, ctx.signal);
          const images = resultImages(r);
          const model = visionModelFor(this.options.chatModel?.());
          const notes = images.length
            ? await describeImages(
                { server: c.name, tool: info.name, images, model },
                ctx,
                this.options.client,
              )
            : [];
          const source = `MCP server ${c.name}, tool ${info.name}`;
          return { content: untrusted(resultText(r, notes, reader), source), isError: Boolean(r.isError) };
        },
      };
      return tool;
    });
  }

  private offer(c: McpConnection): void {
    if (!this.registry || this.registered.has(c.name)) return;
    const tools = this.toolsOf(c, this.defers()).filter((t) => !this.registry!.has(t.name));
    for (const t of tools) this.registry.register(t);
    this.registered.set(
      c.name,
      tools.map((t) => t.name),
    );
  }

  /** Whether the servers' tools wait for tool_search rather than go out with every request. */
  private defers(): boolean {
    const defer = this.options.defer ?? 'auto';
    if (defer !== 'auto') return defer;
    const total = this.connections.reduce((n, c) => n + (c.state === 'ready' ? c.tools.length : 0), 0);
    return total > DEFER_OVER;
  }

  /** tool_search, naming the servers whose tools are deferred now, and those still starting (made again when they change). */
  private offerSearch(): void {
    if (!this.registry) return;
    const groups: ToolGroup[] = [...this.registered.keys()]
      .map((name) => ({
        name,
        count: (this.registered.get(name) ?? []).filter((n) => this.registry!.isDeferred(n)).length,
      }))
      .filter((g) => g.count > 0);
    if (this.registry.pending)
      for (const c of this.connections)
        if (c.state === 'starting') groups.push({ name: c.name, count: 0, starting: true });
    offerToolSearch(this.registry, groups);
  }

  /** A server's tools changed (list_changed): its old ones leave, the new ones join. */
  private relist(c: McpConnection): void {
    if (!this.registry || !this.registered.has(c.name)) return;
    for (const name of this.registered.get(c.name) ?? []) this.registry.unregister(name);
    this.registered.delete(c.name);
    this.offer(c);
    this.offerSearch();
  }

  /** A server that stopped for good: its tools leave the registry (the model is told why). */
  private drop(c: McpConnection): void {
    for (const name of this.registered.get(c.name) ?? []) this.registry?.unregister(name);
    this.registered.delete(c.name);
    this.offerSearch();
  }

  /**
   * A resource the person named (`@server:uri`): the server waited for (started if need be),
   * then read. A failure is said in the person's language.
   */
  async personResource(
    server: string,
    uri: string,
    signal?: AbortSignal,
  ): Promise<{ read: ResourceRead } | { failed: string }> {
    const c = this.connections.find((x) => x.name === server);
    if (!c) return { failed: t('mcp.resource.noServer') };
    await this.start([server]);
    if (c.state !== 'ready') return { failed: c.error ?? t('mcp.state.failed') };
    if (!c.offers.resources) return { failed: t('mcp.resource.none') };
    try {
      return { read: await readResource(c, uri, signal) };
    } catch (err) {
      // The SDK says "MCP error -32602: MCP error -32602: Resource … not found": the server's words only.
      const said = (err instanceof Error ? err.message : String(err)).replace(/^(MCP error -?\d+:\s*)+/, '');
      return { failed: visible(said) };
    }
  }

  /** The prompts of the servers that are up, as slash commands name them. */
  prompts(): ServerPrompt[] {
    return this.connections
      .filter((c) => c.state === 'ready')
      .flatMap((c) =>
        c.prompts.map((p) => ({ ...p, server: c.name, command: promptCommand(c.name, p.name) })),
      );
  }

  /** Wait for every server still starting or re-reading its lists (a slash command may name a prompt of any). */
  async settled(): Promise<void> {
    await this.start();
    await Promise.all(this.connections.map((c) => c.refreshing));
  }

  /** The text of one prompt, with its arguments. */
  promptText(p: ServerPrompt, args: Record<string, string>): Promise<string> {
    const c = this.connections.find((x) => x.name === p.server);
    if (!c) throw new Error(`no MCP server ${p.server}`);
    return promptText(c, p.name, args);
  }

  status(): McpStatus[] {
    return this.connections.map((c) => ({
      name: c.name,
      state: c.state,
      transport: c.transport,
      trust: c.config.trust,
      tools: c.state === 'ready' ? this.toolsOf(c).map((t) => t.name) : [],
      ...(c.error ? { error: c.error } : {}),
      restarts: c.restarts,
    }));
  }

  async close(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.close()));
  }
}
