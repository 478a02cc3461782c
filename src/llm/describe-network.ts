import { type ErrorText, ZhiError } from '../support/errors.js';
import type { ApiErrorInfo, NetworkCause } from './types.js';

type Key = ErrorText['key'];

/** Per cause: what happened, why that usually is, and what to try, in order. */
const CAUSES: Record<Exclude<NetworkCause, 'other'>, { what: Key; why: Key; tries: Key[] }> = {
  refused: {
    what: 'llm.net.refused.what',
    why: 'llm.net.refused.why',
    tries: ['llm.network.try2', 'llm.net.refused.try'],
  },
  not_found: {
    what: 'llm.net.notFound.what',
    why: 'llm.net.notFound.why',
    tries: ['llm.network.try2', 'llm.net.checkConnection'],
  },
  timeout: {
    what: 'llm.net.timeout.what',
    why: 'llm.net.timeout.why',
    tries: ['llm.net.checkConnection', 'llm.net.retry'],
  },
  reset: {
    what: 'llm.net.reset.what',
    why: 'llm.net.reset.why',
    tries: ['llm.net.retry', 'llm.net.checkConnection'],
  },
  unreachable: {
    what: 'llm.net.unreachable.what',
    why: 'llm.net.unreachable.why',
    tries: ['llm.net.checkConnection', 'llm.network.try2'],
  },
  certificate: {
    what: 'llm.net.certificate.what',
    why: 'llm.net.certificate.why',
    tries: ['llm.net.certificate.try1', 'llm.net.certificate.try2'],
  },
  proxy: { what: 'llm.net.proxy.what', why: 'llm.net.proxy.why', tries: [] },
  bad_port: { what: 'llm.net.badPort.what', why: 'llm.net.badPort.why', tries: ['llm.network.try2'] },
};

/** `host:port` of a URL, without any user name or password in it. */
function hostOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).host || undefined;
  } catch {
    return undefined;
  }
}

/**
 * A request that got no answer, for a person: what happened to which host, why that usually is,
 * and what to try. Undefined when the cause is unknown (the caller keeps its general message).
 */
export function describeNetworkFailure(err: ApiErrorInfo): ZhiError | undefined {
  const cause = err.network && err.network !== 'other' ? CAUSES[err.network] : undefined;
  const apiHost = hostOf(err.url);
  if (!cause || !apiHost) return undefined;
  const proxy = hostOf(err.proxy);
  // A refusal or timeout from the proxy itself names the proxy, not the API it was asked for.
  const viaProxy = proxy !== undefined && (err.network === 'proxy' || err.message.includes(proxy));
  const host = viaProxy ? proxy : apiHost;
  const tries: ErrorText[] = cause.tries.map((key) => ({ key }));
  if (proxy) tries.unshift({ key: 'llm.net.proxyTry', params: { proxy } });
  return new ZhiError({
    kind: 'network',
    what: { key: cause.what, params: { host } },
    why: { key: cause.why, params: { detail: err.message } },
    tries,
  });
}
