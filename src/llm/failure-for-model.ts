/**
 * A failed platform request in words for the model (English, like every tool result): what
 * failed, why, and what it can do about it. The person sees the same failure through
 * `describeApiError` in their own language.
 */
import type { ApiErrorInfo } from './types.js';

export function failureForModel(what: string, error: ApiErrorInfo): string {
  if (error.kind === 'aborted') return 'Interrupted.';
  const code = error.code ? ` ${error.code}` : '';
  const base = `${what} failed (${error.kind}${code}): ${error.message}.`;
  switch (error.kind) {
    case 'auth':
      return `${base} The API key was not accepted; the user can fix it with \`zhi config set api_key …\` or \`zhi --setup\`.`;
    case 'balance':
      return `${base} The account has no balance or quota left; tell the user.`;
    case 'rate_limit':
    case 'overloaded':
      return `${base} The service is busy; try again in a minute.`;
    case 'network':
      return `${base} The platform could not be reached (${error.network ?? 'network'}); tell the user, do not retry at once.`;
    case 'timeout':
      return `${base} Try again later.`;
    default:
      return base;
  }
}
