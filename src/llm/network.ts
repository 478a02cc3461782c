/**
 * Why a request never got an answer. fetch only says "fetch failed"; the reason is in
 * `err.cause` (Node's socket and TLS codes: ECONNREFUSED, ENOTFOUND, ETIMEDOUT, CERT_…), sometimes
 * one level further down or inside an AggregateError (one error per address tried).
 */
import type { ApiErrorInfo, NetworkCause } from './types.js';

interface CodedError {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
}

const CAUSES: [RegExp, NetworkCause][] = [
  [/^ECONNREFUSED$/, 'refused'],
  [/^(ENOTFOUND|EAI_AGAIN|EAI_NONAME|EAI_NODATA)$/, 'not_found'],
  [/^(ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|UND_ERR_HEADERS_TIMEOUT|ESOCKETTIMEDOUT)$/, 'timeout'],
  [/^(ECONNRESET|EPIPE|ECONNABORTED|UND_ERR_SOCKET|UND_ERR_CLOSED)$/, 'reset'],
  [/^(ENETUNREACH|EHOSTUNREACH|ENETDOWN|EHOSTDOWN|EADDRNOTAVAIL)$/, 'unreachable'],
  [
    /^(CERT_|UNABLE_TO_|SELF_SIGNED_CERT|DEPTH_ZERO_SELF_SIGNED_CERT|ERR_TLS_CERT|ERR_SSL_|HOSTNAME_MISMATCH)/,
    'certificate',
  ],
];

/** The first error in the cause chain that carries a code (depth-limited: causes can loop). */
function codedCause(err: unknown): { code: string; message: string } | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const e = current as CodedError;
    if (typeof e.code === 'string' && e.code !== 'UND_ERR') {
      return { code: e.code, message: typeof e.message === 'string' ? e.message : '' };
    }
    const first = Array.isArray(e.errors) ? (e.errors[0] as unknown) : undefined;
    current = e.cause ?? first;
  }
  return undefined;
}

/** The deepest message in the chain ("bad port", "Proxy response (407) …"), for the "why". */
function deepestMessage(err: unknown): string {
  let message = err instanceof Error ? err.message : String(err);
  let current: unknown = err instanceof Error ? err.cause : undefined;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const m = (current as CodedError).message;
    if (typeof m === 'string' && m) message = m;
    current = (current as CodedError).cause;
  }
  return message;
}

/** A request to `url` that threw (not an HTTP error status): what happened, as data. */
export function fetchFailure(err: unknown, url: string, proxy?: string): ApiErrorInfo {
  const coded = codedCause(err);
  const message = coded ? `${coded.code}${coded.message ? `: ${coded.message}` : ''}` : deepestMessage(err);
  let network: NetworkCause = coded ? (CAUSES.find(([re]) => re.test(coded.code))?.[1] ?? 'other') : 'other';
  if (network === 'other' && /proxy/i.test(message)) network = 'proxy';
  if (network === 'other' && /bad port/i.test(message)) network = 'bad_port';
  return {
    kind: 'network',
    message,
    network,
    url,
    ...(proxy ? { proxy } : {}),
    // A certificate or a forbidden port does not fix itself in two seconds.
    retryable: network !== 'certificate' && network !== 'bad_port',
  };
}
