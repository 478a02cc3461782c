/**
 * OAuth for remote MCP servers (the SDK's client auth): a server that answers 401 and publishes
 * OAuth metadata is signed in to with the authorization code flow and PKCE in the person's
 * browser, by `zhi mcp login <name>` — never in the middle of a chat, where no browser should
 * open unasked. The client registration and tokens are kept per server address in one file in
 * zhi's config folder (mode 0600); a chat uses and refreshes them, and when they are gone or
 * refused it fails with `McpLoginNeeded`, which says to run the login.
 */

import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { writeFileAtomic } from '../../support/atomic.js';
import type { McpServerConfig } from '../../support/mcp-config.js';
import { httpTransport } from './transports.js';

/** A server that needs the person to sign in (`zhi mcp login <name>`). */
export class McpLoginNeeded extends Error {
  constructor(readonly server: string) {
    super(`The MCP server "${server}" needs you to sign in: run zhi mcp login ${server}.`);
    this.name = 'McpLoginNeeded';
  }
}

interface Saved {
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
}

/** The file of every server's registration and tokens, by address. */
class OAuthFile {
  constructor(readonly path: string) {}

  async read(): Promise<Record<string, Saved>> {
    try {
      const data = JSON.parse(await readFile(this.path, 'utf8')) as unknown;
      return typeof data === 'object' && data !== null ? (data as Record<string, Saved>) : {};
    } catch {
      return {};
    }
  }

  async update(url: string, change: (s: Saved) => Saved): Promise<void> {
    const all = await this.read();
    all[url] = change(all[url] ?? {});
    await writeFileAtomic(this.path, `${JSON.stringify(all, null, 2)}\n`, 0o600);
  }
}

/** What a sign-in in the browser needs: where the code comes back, and how the page is opened. */
export interface Interactive {
  redirectUrl: string;
  open(url: string): void;
}

/** zhi's side of the SDK's OAuth: the saved registration and tokens; a browser only when signing in. */
export class ZhiOAuthProvider implements OAuthClientProvider {
  private verifier = '';
  private readonly file: OAuthFile;
  /** A sign-in's own registration and tokens (also saved), read back within the same sign-in. */
  private fresh: Saved = {};

  constructor(
    path: string,
    private readonly server: string,
    private readonly url: string,
    private readonly interactive?: Interactive,
  ) {
    this.file = new OAuthFile(path);
  }

  get redirectUrl(): string {
    return this.interactive?.redirectUrl ?? 'http://127.0.0.1/callback';
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'zhi',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    // A sign-in registers afresh: its redirect address (a new port each time) must be the registered one.
    if (this.interactive) return this.fresh.client;
    return (await this.file.read())[this.url]?.client;
  }

  saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    this.fresh.client = client;
    return this.file.update(this.url, (s) => ({ ...s, client }));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    if (this.interactive) return this.fresh.tokens;
    return (await this.file.read())[this.url]?.tokens;
  }

  saveTokens(tokens: OAuthTokens): Promise<void> {
    this.fresh.tokens = tokens;
    return this.file.update(this.url, (s) => ({ ...s, tokens }));
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    if (!this.interactive) throw new McpLoginNeeded(this.server);
    this.interactive.open(authorizationUrl.href);
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier' || scope === 'discovery') return;
    await this.file.update(this.url, (s) =>
      scope === 'all' ? {} : scope === 'client' ? { ...s, client: undefined } : { ...s, tokens: undefined },
    );
  }
}

/**
 * A one-time page on 127.0.0.1 where the browser brings the code back. `code` settles with it
 * (or with the error the server sent); `close` stops listening.
 */
export async function loopback(): Promise<{ redirectUrl: string; code: Promise<string>; close(): void }> {
  let settle: { ok(code: string): void; fail(err: Error): void } | undefined;
  const code = new Promise<string>((ok, fail) => {
    settle = { ok, fail };
  });
  const server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (u.pathname !== '/callback') return void res.writeHead(404).end();
    const got = u.searchParams.get('code');
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('zhi: you can close this page.');
    if (got) settle?.ok(got);
    else
      settle?.fail(
        new Error(u.searchParams.get('error_description') ?? u.searchParams.get('error') ?? 'no code'),
      );
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as { port: number };
  return {
    redirectUrl: `http://127.0.0.1:${port}/callback`,
    code,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/**
 * Sign in to a server in the browser: a loopback page for the code, a fresh registration, the
 * authorization code flow with PKCE (the SDK's `auth`), the tokens saved. Resolves `false` when
 * the server needed no sign-in. `open` shows the address (and opens the browser).
 */
export async function signIn(o: {
  name: string;
  config: McpServerConfig;
  file: string;
  open: (url: string) => void;
  timeoutMs: number;
}): Promise<boolean> {
  const back = await loopback();
  const [{ Client }, { UnauthorizedError }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/auth.js'),
  ]);
  const provider = new ZhiOAuthProvider(o.file, o.name, o.config.url!, {
    redirectUrl: back.redirectUrl,
    open: o.open,
  });
  const connect = async () => {
    const client = new Client({ name: 'zhi', version: __ZHI_VERSION__ });
    const transport = await httpTransport(o.config, 'http', provider);
    await client.connect(transport, { timeout: o.timeoutMs });
    await client.close();
    return transport;
  };
  let timer: NodeJS.Timeout | undefined;
  try {
    const transport = await httpTransport(o.config, 'http', provider);
    const client = new Client({ name: 'zhi', version: __ZHI_VERSION__ });
    try {
      await client.connect(transport, { timeout: o.timeoutMs });
      await client.close();
      return false;
    } catch (err) {
      if (!(err instanceof UnauthorizedError)) throw err;
    }
    const late = new Promise<never>((_, fail) => {
      timer = setTimeout(() => fail(new Error('no answer from the browser in time')), o.timeoutMs);
    });
    await transport.finishAuth(await Promise.race([back.code, late]));
    // The tokens work: a connection with them comes up.
    await connect();
    return true;
  } finally {
    clearTimeout(timer);
    back.close();
  }
}
