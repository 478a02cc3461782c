/**
 * How zhi reaches a server: a program it starts (stdio), or an address (streamable HTTP, or the
 * legacy HTTP+SSE transport — with `transport: sse`, or when a streamable-HTTP POST is answered
 * 4xx, as the SDK's documentation does it for servers that predate streamable HTTP).
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { apiFetch } from '../../llm/http.js';
import type { McpServerConfig } from '../../support/mcp-config.js';

export type TransportKind = 'stdio' | 'http' | 'sse';

/** The transport to try first. */
export function firstKind(config: McpServerConfig): TransportKind {
  if (!config.url) return 'stdio';
  return config.transport === 'sse' ? 'sse' : 'http';
}

/**
 * A streamable-HTTP failure that says the server speaks the older transport: a 4xx answer to the
 * POST (404 or 405 from an SSE-only server), but not one about who is asking (401, 403, 407) or
 * how often (429), which SSE would not mend.
 */
export function fallsBackToSse(config: McpServerConfig, err: unknown): boolean {
  if (config.transport === 'http' || firstKind(config) !== 'http') return false;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'number' && code >= 400 && code < 500 && ![401, 403, 407, 429].includes(code);
}

/** An HTTP transport of this kind; through zhi's fetch, so HTTPS_PROXY, HTTP_PROXY and NO_PROXY apply. */
export async function httpTransport(
  config: McpServerConfig,
  kind: 'http' | 'sse',
  authProvider?: OAuthClientProvider,
): Promise<Transport & { finishAuth(code: string): Promise<void> }> {
  const url = new URL(config.url!);
  const requestInit = { headers: config.headers ?? {} };
  const fetch = (u: string | URL, init?: RequestInit) => apiFetch(String(u), init ?? {});
  const auth = authProvider ? { authProvider } : {};
  if (kind === 'sse') {
    const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js');
    // The event stream's GET carries the headers too.
    return new SSEClientTransport(url, { requestInit, fetch, eventSourceInit: { fetch }, ...auth });
  }
  const { StreamableHTTPClientTransport } = await import(
    '@modelcontextprotocol/sdk/client/streamableHttp.js'
  );
  return new StreamableHTTPClientTransport(url, { requestInit, fetch, ...auth });
}

/** Whether a server is signed in to with OAuth: an address whose entry gives no Authorization header. */
export function usesOAuth(config: McpServerConfig): boolean {
  const headers = Object.keys(config.headers ?? {});
  return Boolean(config.url) && !headers.some((h) => h.toLowerCase() === 'authorization');
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
 * The server's program, started in the working folder. It gets a plain environment (PATH,
 * HOME…), the proxy settings (an `npx -y` server downloads itself through them) and its own
 * settings, never zhi's key. What it writes on stderr goes to `onStderr`.
 */
export async function stdioTransport(
  config: McpServerConfig,
  cwd: string,
  onStderr: (text: string) => void,
): Promise<Transport> {
  const { StdioClientTransport, getDefaultEnvironment } = await import(
    '@modelcontextprotocol/sdk/client/stdio.js'
  );
  const transport = new StdioClientTransport({
    command: config.command!,
    args: config.args ?? [],
    env: { ...getDefaultEnvironment(), ...proxyEnvironment(process.env), ...(config.env ?? {}) },
    cwd,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (d: Buffer) => onStderr(d.toString('utf8')));
  return transport;
}
