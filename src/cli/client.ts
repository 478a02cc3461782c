/**
 * The model client and usage tracker of a command, made from its context. Apart from context.ts
 * so that commands which never call the model (`zhi skill list`, `zhi sessions`, `zhi config`)
 * do not load the client, its stream parser and retries at start.
 */
import { LearnedCapabilities } from '../llm/capabilities.js';
import { connectPlatform } from '../llm/connect.js';
import type { PlatformClient } from '../llm/types.js';
import { UsageTracker } from '../llm/usage.js';
import { getLanguage } from '../support/i18n/index.js';
import { type AppContext, requireKey } from './context.js';

function numberEnv(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const v = env[name];
  if (!v) return undefined;
  const n = Number(v);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

export function makeClient(ctx: AppContext, apiKey = requireKey(ctx)): PlatformClient {
  const idle = numberEnv(ctx.env, 'ZHI_STREAM_IDLE_TIMEOUT');
  const retryBase = numberEnv(ctx.env, 'ZHI_RETRY_BASE_MS');
  const maxChars = numberEnv(ctx.env, 'ZHI_ANSWER_MAX_CHARS');
  const maxSeconds = numberEnv(ctx.env, 'ZHI_ANSWER_MAX_SECONDS');
  return connectPlatform({
    baseUrl: ctx.config.baseUrl,
    apiKey,
    ...(idle !== undefined ? { idleTimeoutMs: idle * 1000 } : {}),
    ...(maxChars ? { maxAnswerChars: maxChars } : {}),
    ...(maxSeconds ? { maxAnswerMs: maxSeconds * 1000 } : {}),
    ...(retryBase !== undefined ? { retryBaseMs: retryBase, retryCapMs: Math.max(retryBase * 8, 1) } : {}),
    acceptLanguage: getLanguage() === 'zh' ? 'zh-CN,zh' : 'en-US,en',
    userAgent: `zhi/${__ZHI_VERSION__}`,
    capabilities: LearnedCapabilities.load(ctx.paths.capabilitiesFile),
    modelPrefix: ctx.platform.modelPrefix,
  });
}

export function newUsage(ctx: AppContext): UsageTracker {
  return new UsageTracker(ctx.platform);
}
