/**
 * Where a platform client is made: the rest of zhi asks for a `PlatformClient` here and never
 * names a concrete client class, so another platform is a new entry in `PLATFORMS` (and, for a
 * different wire dialect, a branch in the request body) — see docs/architecture.md, "How to add
 * a provider".
 */
import { type ClientOptions, ZhipuClient } from './client.js';
import type { PlatformClient } from './types.js';

export type { ClientOptions };

export function connectPlatform(opts: ClientOptions): PlatformClient {
  return new ZhipuClient(opts);
}
