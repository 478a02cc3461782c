/**
 * `mcp_servers:` in config.yaml: the MCP servers whose tools zhi offers, by name.
 *
 *   mcp_servers:
 *     files:
 *       command: npx
 *       args: [-y, "@modelcontextprotocol/server-filesystem", "."]
 *       env: { LOG_LEVEL: warn }
 *       trust: read            # ask (default) | read | auto
 *       egress: true           # its arguments may reach it unasked (default false)
 *       include: [read_text_file, list_directory]
 *       annotations: trust     # trust (default) | ignore: the server's readOnlyHint/destructiveHint
 *     github:
 *       url: https://api.example.com/mcp
 *       headers: { Authorization: "Bearer …" }
 *       transport: sse         # the legacy HTTP+SSE transport (default: streamable HTTP, SSE when it answers 4xx)
 *
 * Checked here (plain code, no zod: config is read on every start); used by the config loader
 * and by `zhi mcp add`. A bad entry leaves out that server only, with a warning that names it.
 */
import { type MessageKey, type Params, t } from './i18n/index.js';
import { visible } from './sanitize.js';

/**
 * ask: every call asks, in every mode · read: the server only reads, its tools run without a
 * question (also with no terminal) · auto: asks in approve mode, runs in auto mode.
 */
export type McpTrust = 'ask' | 'read' | 'auto';
export const MCP_TRUST: readonly McpTrust[] = ['ask', 'read', 'auto'];

/**
 * trust: a tool the server marks read-only (`readOnlyHint`) runs without the action question,
 * one marked destructive gets a warning in its approval · ignore: the marks count for nothing.
 */
export type McpAnnotations = 'trust' | 'ignore';
export const MCP_ANNOTATIONS: readonly McpAnnotations[] = ['trust', 'ignore'];

export interface McpServerConfig {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
  /** `sse`: the legacy HTTP+SSE transport only. Absent: streamable HTTP, falling back to SSE on a 4xx. */
  transport?: 'sse' | 'http';
  trust: McpTrust;
  /**
   * The person's word that the model's arguments may go to this server with no question (it
   * keeps them on this computer, or it is a service they trust with their data). Without it,
   * every call with arguments asks, in every mode and whatever `trust` says (agent/egress.ts).
   */
  egress?: boolean;
  /** Only these tools (names as the server gives them). */
  include?: string[];
  exclude?: string[];
  /** Seconds to wait for the server to start and list its tools (default 30). */
  timeout?: number;
  /** Seconds one tool call may take before it is abandoned (default 120). */
  call_timeout?: number;
  /** Whether the server's tool annotations decide approvals (default trust). */
  annotations?: McpAnnotations;
}

/** Server names become the first half of tool names (`files__read_text_file`). */
export const MCP_NAME_RE = /^[a-zA-Z0-9][a-zA-Z0-9_-]{0,29}$/;
const KEYS = [
  'command',
  'args',
  'env',
  'url',
  'headers',
  'trust',
  'egress',
  'include',
  'exclude',
  'timeout',
  'call_timeout',
  'annotations',
  'transport',
];

const isText = (v: unknown): v is string => typeof v === 'string' && v.trim().length > 0;
const isTextList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isTextMap = (v: unknown): v is Record<string, string> =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  Object.values(v).every((x) => typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean');

/**
 * What is wrong with one server's entry: the server, the setting at fault (when one is) and a
 * catalogue message, so config.yaml errors are told in the person's language.
 */
export interface McpProblem {
  name: string;
  field?: string;
  key: MessageKey;
  params?: Params;
}

/** What is wrong with one server's entry, or undefined when it is fine. */
export function mcpServerProblem(name: string, v: unknown): McpProblem | undefined {
  const problem = (key: MessageKey, field?: string, params: Params = {}): McpProblem => ({
    name,
    ...(field ? { field } : {}),
    key,
    params: { ...params, ...(field ? { field } : {}) },
  });
  if (!MCP_NAME_RE.test(name)) return problem('mcp.bad.name');
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return problem('mcp.bad.notMap');
  const o = v as Record<string, unknown>;
  const unknown = Object.keys(o).find((k) => !KEYS.includes(k));
  if (unknown) return problem('mcp.bad.unknown', unknown, { known: KEYS.join(', ') });
  if (isText(o.command) === isText(o.url)) return problem('mcp.bad.commandOrUrl');
  if (o.url !== undefined) {
    try {
      if (!['http:', 'https:'].includes(new URL(String(o.url)).protocol)) throw new Error('scheme');
    } catch {
      return problem('mcp.bad.url', 'url');
    }
  }
  for (const k of ['args', 'include', 'exclude'] as const) {
    if (o[k] !== undefined && !isTextList(o[k])) return problem('mcp.bad.list', k);
  }
  for (const k of ['env', 'headers'] as const) {
    if (o[k] !== undefined && !isTextMap(o[k])) return problem('mcp.bad.map', k);
  }
  if (o.trust !== undefined && !MCP_TRUST.includes(o.trust as McpTrust))
    return problem('mcp.bad.trust', 'trust', { value: String(o.trust), known: MCP_TRUST.join(', ') });
  if (o.transport !== undefined && (!['http', 'sse'].includes(String(o.transport)) || o.url === undefined))
    return problem('mcp.bad.transport', 'transport', { value: String(o.transport) });
  if (o.annotations !== undefined && !MCP_ANNOTATIONS.includes(o.annotations as McpAnnotations))
    return problem('mcp.bad.annotations', 'annotations', {
      value: String(o.annotations),
      known: MCP_ANNOTATIONS.join(', '),
    });
  if (o.egress !== undefined && typeof o.egress !== 'boolean')
    return problem('mcp.bad.egress', 'egress', { value: String(o.egress) });
  if (o.timeout !== undefined && !(typeof o.timeout === 'number' && o.timeout > 0 && o.timeout <= 600))
    return problem('mcp.bad.timeout', 'timeout');
  const call = o.call_timeout;
  if (call !== undefined && !(typeof call === 'number' && call > 0 && call <= 3600))
    return problem('mcp.bad.callTimeout', 'call_timeout');
  return undefined;
}

/** A problem as a person reads it (the server's own values shown, never executed). */
export function mcpProblemText(p: McpProblem): string {
  const params: Params = { name: p.name };
  for (const [k, v] of Object.entries(p.params ?? {})) params[k] = typeof v === 'string' ? visible(v) : v;
  return t(p.key, params);
}

/** `mcp_servers` itself must map names to servers (each entry is checked on its own). */
export function isServerMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The problem of every entry that cannot be used (the others still work). */
export function mcpServersProblems(v: Record<string, unknown>): McpProblem[] {
  return Object.entries(v)
    .map(([name, server]) => mcpServerProblem(name, server))
    .filter((p): p is McpProblem => p !== undefined);
}

/** A checked entry with defaults applied (env and header values as text). */
export function normalizeServer(v: Record<string, unknown>): McpServerConfig {
  const text = (m: unknown) =>
    m
      ? Object.fromEntries(Object.entries(m as Record<string, unknown>).map(([k, x]) => [k, String(x)]))
      : undefined;
  const out: McpServerConfig = { trust: (v.trust as McpTrust | undefined) ?? 'ask' };
  if (v.egress === true) out.egress = true;
  if (isText(v.command)) out.command = v.command;
  if (isTextList(v.args)) out.args = v.args;
  const env = text(v.env);
  if (env) out.env = env;
  if (isText(v.url)) out.url = v.url;
  const headers = text(v.headers);
  if (headers) out.headers = headers;
  if (isTextList(v.include)) out.include = v.include;
  if (isTextList(v.exclude)) out.exclude = v.exclude;
  if (typeof v.timeout === 'number') out.timeout = v.timeout;
  if (typeof v.call_timeout === 'number') out.call_timeout = v.call_timeout;
  if (v.annotations === 'ignore') out.annotations = 'ignore';
  if (v.transport === 'sse' || v.transport === 'http') out.transport = v.transport;
  return out;
}
