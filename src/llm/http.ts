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

let proxied: FetchLike | undefined;

export async function apiFetch(url: string, init: RequestInit): Promise<Response> {
  if (!proxyConfigured()) return fetch(url, init);
  if (!proxied) {
    const undici = await import('undici');
    const dispatcher = new undici.EnvHttpProxyAgent();
    proxied = (u, i) =>
      undici.fetch(u, {
        ...(i as Record<string, unknown>),
        dispatcher,
      } as never) as unknown as Promise<Response>;
  }
  return proxied(url, init);
}
