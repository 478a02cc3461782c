/** Token counts as the API reports them, read into zhi's `Usage`. */
import { type Usage, ZERO_USAGE } from './types.js';

export interface RawUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
  completion_tokens_details?: { reasoning_tokens?: number } | null;
}

export function parseUsage(raw: RawUsage | undefined): Usage {
  if (!raw) return { ...ZERO_USAGE };
  const prompt = raw.prompt_tokens ?? 0;
  const completion = raw.completion_tokens ?? 0;
  return {
    promptTokens: prompt,
    completionTokens: completion,
    totalTokens: raw.total_tokens ?? prompt + completion,
    cachedTokens: raw.prompt_tokens_details?.cached_tokens ?? 0,
    reasoningTokens: raw.completion_tokens_details?.reasoning_tokens ?? 0,
  };
}
