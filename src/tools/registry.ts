import { z } from 'zod';
import type { ToolSchema } from '../llm/types.js';
import { type AnyTool, type Offer, offerOf, traitsOfTool } from './types.js';

/** The most deferred tools whose schemas are sent at once (see ToolRegistry.load). */
export const MAX_LOADED = 20;

/**
 * Tools still on their way: MCP servers starting in the background while the conversation goes
 * on (tools/mcp/manager.ts). A search or a call of one of their tools waits for them then.
 */
export interface PendingTools {
  /** The groups (server names) still starting. */
  starting(): string[];
  /**
   * Wait for the server behind `tool` (its `<server>__` prefix), or for every one without it.
   * `warnings` are for the person (servers that failed, said once); `failed` for the model.
   */
  settle(tool?: string): Promise<{ warnings: string[]; failed: string[] }>;
}

/** Holds the tools of a run; produces the JSON Schemas sent to the API. */
export class ToolRegistry {
  private readonly tools = new Map<string, AnyTool>();
  /** Bumped on every change, so a run can tell its schemas are stale (an MCP server went away). */
  version = 0;
  /** Servers still starting, whose tools join later (a chat's MCP servers). */
  pending: PendingTools | undefined;

  constructor(tools: AnyTool[] = []) {
    for (const t of tools) this.register(t);
  }

  register(tool: AnyTool): void {
    if (this.tools.has(tool.name)) throw new Error(`A tool named "${tool.name}" is already registered.`);
    if (!/^[a-zA-Z0-9_-]{1,64}$/.test(tool.name)) throw new Error(`Invalid tool name "${tool.name}".`);
    this.tools.set(tool.name, tool);
    this.version += 1;
  }

  /** Remove a tool (an MCP server that stopped for good). */
  unregister(name: string): void {
    this.loaded = this.loaded.filter((n) => n !== name);
    if (this.tools.delete(name)) this.version += 1;
  }

  /**
   * Whether tools are offered as their `offer` trait asks of a conversation (`{ search }`,
   * `{ when }`), rather than all at once: a skill run named the tools it needs. A registry made
   * by `filter` (a skill run's) offers all at once.
   */
  onDemand = false;

  /** The one reader of the `offer` trait (tools/types.ts Offer): how this registry offers the tool. */
  private offerHere(tool: AnyTool): Offer {
    const offer = offerOf(traitsOfTool(tool));
    if (typeof offer === 'string') return offer;
    return this.onDemand ? offer : 'always';
  }

  /** The deferred built-ins here, each with the phrase that names it in tool_search's description. */
  searchPhrases(): { name: string; phrase: string }[] {
    return this.list().flatMap((t) => {
      const offer = this.offerHere(t);
      return typeof offer === 'object' && 'search' in offer ? [{ name: t.name, phrase: offer.search }] : [];
    });
  }

  /** Sent only once tool_search found it or the model called it by name. */
  isDeferred(name: string): boolean {
    const tool = this.tools.get(name);
    if (!tool) return false;
    const offer = this.offerHere(tool);
    return offer === 'on-search' || (typeof offer === 'object' && 'search' in offer);
  }

  /**
   * Deferred tools (offered `on-search` or `{ search }`) found by tool_search or called by name, oldest
   * first: their schemas are sent from then on. At most MAX_LOADED, so a long session that
   * found many tools still stays far below the API's limit on tools per request.
   */
  private loaded: string[] = [];

  /** Send the schemas of these deferred tools from now on (the newest MAX_LOADED stay). */
  load(names: readonly string[]): void {
    const wanted = names.filter((n) => this.isDeferred(n));
    if (!wanted.length || wanted.every((n) => this.loaded.includes(n))) return;
    this.loaded = [...this.loaded.filter((n) => !wanted.includes(n)), ...wanted].slice(-MAX_LOADED);
    this.version += 1;
  }

  /** The tools whose schemas wait for tool_search. */
  deferred(): AnyTool[] {
    return this.list().filter((t) => this.isDeferred(t.name));
  }

  get(name: string): AnyTool | undefined {
    return this.tools.get(name);
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  list(): AnyTool[] {
    return [...this.tools.values()];
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  /** A new registry with only the named tools (unknown names are ignored; callers validate first). */
  filter(names: readonly string[]): ToolRegistry {
    return new ToolRegistry(names.map((n) => this.tools.get(n)).filter((t): t is AnyTool => Boolean(t)));
  }

  /**
   * The schemas to send. With `userText` (what the person has written so far), a tool offered
   * `{ when }` here is left out unless the text calls for it.
   */
  schemas(userText?: string): ToolSchema[] {
    const tools = this.list().filter((t) => !this.isDeferred(t.name) || this.loaded.includes(t.name));
    const offered =
      userText === undefined
        ? tools
        : tools.filter((t) => {
            const offer = this.offerHere(t);
            return typeof offer !== 'object' || !('when' in offer) || offer.when(userText);
          });
    return offered.map(toSchema);
  }

  /** Names of the tools offered in every request (the ones a system prompt may name). */
  alwaysOffered(): string[] {
    return this.list()
      .filter((t) => this.offerHere(t) === 'always')
      .map((t) => t.name);
  }
}

/** Schemas are the same for the life of the process: converted from zod once per tool. */
const converted = new WeakMap<AnyTool, ToolSchema>();

export function toSchema(tool: AnyTool): ToolSchema {
  let schema = converted.get(tool);
  if (!schema) {
    schema = convert(tool);
    converted.set(tool, schema);
  }
  return schema;
}

function convert(tool: AnyTool): ToolSchema {
  if (tool.parameters) {
    return {
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    };
  }
  const json = z.toJSONSchema(tool.schema, { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
  delete json.$schema;
  if (json.type === 'object' && json.additionalProperties === false) delete json.additionalProperties;
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: lean(json) },
  };
}

/**
 * The schema without what tells the model nothing but is sent with every request: far limits
 * (below), and `{}` for "anything" (`items: {}`, an object's empty `properties` with
 * `additionalProperties: {}`). Validation still uses the zod schema.
 */
export function lean(node: unknown, top = true): Record<string, unknown> {
  if (Array.isArray(node)) return node.map((n) => lean(n, false)) as unknown as Record<string, unknown>;
  if (!node || typeof node !== 'object') return node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (isFarLimit(k, v)) continue;
    if ((k === 'items' || k === 'additionalProperties') && isEmptyObject(v)) continue;
    out[k] =
      k === 'properties' && isObject(v) ? leanEach(v) : isObject(v) || Array.isArray(v) ? lean(v, false) : v;
  }
  // A nested object that allows any property: its empty `properties` says nothing either (the
  // parameters object itself keeps its `properties`, which the API expects).
  if (!top && out.type === 'object' && isEmptyObject(out.properties) && !('additionalProperties' in out)) {
    delete out.properties;
  }
  return out;
}

/**
 * Limits the model never comes near (zod's 2^53-1 on every integer, 20,000 characters of a
 * command, page 100,000), `minLength: 1` and `minimum: 0`: the arguments are still checked
 * against them.
 */
function isFarLimit(key: string, v: unknown): boolean {
  if (typeof v !== 'number') return false;
  // An offset or a count below zero is no choice the model makes.
  if (key === 'minimum') return v === 0;
  if (key === 'maximum' || key === 'maxLength') return v >= 1000;
  return key === 'minLength' && v === 1;
}

/** Property names are kept as they are, whatever they are called ("items", "maximum"…). */
function leanEach(props: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(props).map(([name, s]) => [name, lean(s, false)]));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return Boolean(v) && typeof v === 'object' && !Array.isArray(v);
}

function isEmptyObject(v: unknown): boolean {
  return isObject(v) && Object.keys(v).length === 0;
}
