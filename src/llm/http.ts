/**
 * The fetch used for the API. Plain global fetch, unless a proxy is configured in the
 * environment: then undici (loaded only in that case) with EnvHttpProxyAgent, which honours
 * HTTPS_PROXY, HTTP_PROXY and NO_PROXY.
 */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export function proxyConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy);
}

/** The proxy requests go through (for error messages), or undefined without one. */
export function proxyInUse(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy || undefined;
}

let proxied: Promise<FetchLike> | undefined;

/** undici's fetch through EnvHttpProxyAgent, made once (loading undici takes a while). */
function proxiedFetch(): Promise<FetchLike> {
  proxied ??= import('undici').then((undici) => {
    const dispatcher = quietly(() => new undici.EnvHttpProxyAgent());
    return (u, i) =>
      undici.fetch(u, {
        ...(i as Record<string, unknown>),
        dispatcher,
      } as never) as unknown as Promise<Response>;
  });
  return proxied;
}

export async function apiFetch(url: string, init: RequestInit): Promise<Response> {
  if (!proxyConfigured()) return fetch(url, init);
  return (await proxiedFetch())(url, init);
}

/**
 * Make the agent without undici's "EnvHttpProxyAgent is experimental" warning (UNDICI-EHPA):
 * printed on the person's terminal, it says nothing they can act on. Other warnings pass.
 */
function quietly<T>(make: () => T): T {
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const code = rest.map((r) => (typeof r === 'object' && r ? (r as { code?: unknown }).code : r));
    if (code.includes('UNDICI-EHPA')) return;
    (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return make();
  } finally {
    process.emitWarning = emit;
  }
}
