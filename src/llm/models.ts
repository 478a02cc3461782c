import type { Currency, Platform } from './platforms.js';

/**
 * The model registry: what each GLM model can do and what it costs. Prices are per million
 * tokens (reference §9): CNY on BigModel, USD on Z.ai; `null` means the platform does not list it
 * (we then fall back to the other table converted at a nominal rate, flagged as an estimate).
 */
export interface Price {
  input: number;
  cachedInput: number;
  output: number;
}

export interface ModelInfo {
  id: string;
  kind: 'chat' | 'vision' | 'ocr';
  contextWindow: number;
  maxOutput: number;
  /** Accepts `thinking`. */
  thinking: boolean;
  /** Thinking cannot be disabled (GLM-5.3, GLM-4.7, GLM-4.5V). */
  thinkingForced?: boolean;
  tools: boolean;
  /** Supports `tool_stream` (GLM-4.6 and later chat models). */
  toolStream: boolean;
  prices: { bigmodel: Price | null; zai: Price | null };
  description: string;
}

const free: Price = { input: 0, cachedInput: 0, output: 0 };
const p = (input: number, cachedInput: number, output: number): Price => ({ input, cachedInput, output });
const K = 1024;

export const MODELS: ModelInfo[] = [
  {
    id: 'glm-5.3',
    kind: 'chat',
    contextWindow: 1_000_000,
    maxOutput: 128 * K,
    thinking: true,
    thinkingForced: true,
    tools: true,
    toolStream: true,
    prices: { bigmodel: p(8, 1.6, 28), zai: p(1.4, 0.26, 4.4) },
    description: 'Newest flagship, always thinks',
  },
  {
    id: 'glm-5.2',
    kind: 'chat',
    contextWindow: 1_000_000,
    maxOutput: 128 * K,
    thinking: true,
    tools: true,
    toolStream: true,
    prices: { bigmodel: p(8, 1.6, 28), zai: p(1.4, 0.26, 4.4) },
    description: 'Flagship, 1M context',
  },
  {
    id: 'glm-5.1',
    kind: 'chat',
    contextWindow: 200_000,
    maxOutput: 128 * K,
    thinking: true,
    tools: true,
    toolStream: true,
    prices: { bigmodel: p(6, 1.2, 24), zai: p(1.4, 0.26, 4.4) },
    description: 'Flagship',
  },
  {
    id: 'glm-5',
    kind: 'chat',
    contextWindow: 200_000,
    maxOutput: 128 * K,
    thinking: true,
    tools: true,
    toolStream: true,
    prices: { bigmodel: p(4, 0.8, 18), zai: p(1.0, 0.2, 3.2) },
    description: 'Default chat model: deep reasoning and tools',
  },
  {
    id: 'glm-5-turbo',
    kind: 'chat',
    contextWindow: 200_000,
    maxOutput: 128 * K,
    thinking: true,
    tools: true,
    toolStream: true,
    prices: { bigmodel: null, zai: p(1.2, 0.24, 4.0) },
    description: 'Faster GLM-5',
  },
  {
    id: 'glm-4.7',
    kind: 'chat',
    contextWindow: 200_000,
    maxOutput: 128 * K,
    thinking: true,
    thinkingForced: true,
    tools: true,
    toolStream: true,
    prices: { bigmodel: p(2, 0.4, 8), zai: p(0.6, 0.11, 2.2) },
    description: 'Strong all-rounder, always thinks',
  },
  {
    id: 'glm-4.7-flash',
    kind: 'chat',
    contextWindow: 200_000,
    maxOutput: 128 * K,
    thinking: true,
    tools: true,
    toolStream: true,
    prices: { bigmodel: free, zai: free },
    description: 'Free, fast',
  },
  {
    id: 'glm-4.7-flashx',
    kind: 'chat',
    contextWindow: 200_000,
    maxOutput: 128 * K,
    thinking: true,
    tools: true,
    toolStream: true,
    prices: { bigmodel: p(0.5, 0.1, 3), zai: p(0.07, 0.01, 0.4) },
    description: 'Cheap and fast',
  },
  {
    id: 'glm-4.6',
    kind: 'chat',
    contextWindow: 200_000,
    maxOutput: 128 * K,
    thinking: true,
    tools: true,
    toolStream: true,
    prices: { bigmodel: p(2, 0.4, 8), zai: p(0.6, 0.11, 2.2) },
    description: 'Previous flagship',
  },
  {
    id: 'glm-4.5',
    kind: 'chat',
    contextWindow: 128_000,
    maxOutput: 96 * K,
    thinking: true,
    tools: true,
    toolStream: false,
    prices: { bigmodel: p(2, 0.4, 8), zai: p(0.6, 0.11, 2.2) },
    description: 'GLM-4.5',
  },
  {
    id: 'glm-4.5-air',
    kind: 'chat',
    contextWindow: 128_000,
    maxOutput: 96 * K,
    thinking: true,
    tools: true,
    toolStream: false,
    prices: { bigmodel: p(0.8, 0.16, 2), zai: p(0.2, 0.03, 1.1) },
    description: 'Light GLM-4.5',
  },
  {
    id: 'glm-4.5-flash',
    kind: 'chat',
    contextWindow: 128_000,
    maxOutput: 96 * K,
    thinking: true,
    tools: true,
    toolStream: false,
    prices: { bigmodel: free, zai: free },
    description: 'Free GLM-4.5',
  },
  {
    id: 'glm-4-plus',
    kind: 'chat',
    contextWindow: 128_000,
    maxOutput: 4 * K,
    thinking: false,
    tools: true,
    toolStream: false,
    prices: { bigmodel: p(5, 5, 5), zai: null },
    description: 'GLM-4 flagship (BigModel)',
  },
  {
    id: 'glm-4-air',
    kind: 'chat',
    contextWindow: 128_000,
    maxOutput: 4 * K,
    thinking: false,
    tools: true,
    toolStream: false,
    prices: { bigmodel: p(0.5, 0.25, 0.5), zai: null },
    description: 'Cheap GLM-4 (BigModel)',
  },
  {
    id: 'glm-4-flash',
    kind: 'chat',
    contextWindow: 128_000,
    maxOutput: 4 * K,
    thinking: false,
    tools: true,
    toolStream: false,
    prices: { bigmodel: free, zai: free },
    description: 'Free; the default skill model',
  },
  {
    id: 'glm-4.6v',
    kind: 'vision',
    contextWindow: 128_000,
    maxOutput: 32 * K,
    thinking: true,
    tools: true,
    toolStream: false,
    prices: { bigmodel: p(1, 0.2, 3), zai: p(0.3, 0.05, 0.9) },
    description: 'Vision',
  },
  {
    id: 'glm-4.6v-flash',
    kind: 'vision',
    contextWindow: 128_000,
    maxOutput: 32 * K,
    thinking: true,
    tools: true,
    toolStream: false,
    prices: { bigmodel: free, zai: free },
    description: 'Free vision',
  },
  {
    id: 'glm-4.5v',
    kind: 'vision',
    contextWindow: 64_000,
    maxOutput: 16 * K,
    thinking: true,
    thinkingForced: true,
    tools: false,
    toolStream: false,
    prices: { bigmodel: p(2, 0.4, 6), zai: p(0.6, 0.11, 1.8) },
    description: 'Vision',
  },
  {
    id: 'glm-4v-flash',
    kind: 'vision',
    contextWindow: 8_000,
    maxOutput: 1 * K,
    thinking: false,
    tools: false,
    toolStream: false,
    prices: { bigmodel: free, zai: null },
    description: 'Free vision (BigModel)',
  },
  {
    id: 'glm-ocr',
    kind: 'ocr',
    contextWindow: 0,
    maxOutput: 0,
    thinking: false,
    tools: false,
    toolStream: false,
    prices: { bigmodel: p(0.2, 0.2, 0.2), zai: p(0.03, 0.03, 0.03) },
    description: 'Layout parsing / OCR',
  },
];

const byId = new Map(MODELS.map((m) => [m.id, m]));

export const DEFAULT_CHAT_MODEL = 'glm-5';
export const DEFAULT_SKILL_MODEL = 'glm-4-flash';
export const DEFAULT_VISION_MODEL = 'glm-4.6v-flash';

/** Look a model up by id, case-insensitively (the API accepts `GLM-5` too). */
export function findModel(id: string): ModelInfo | undefined {
  return byId.get(id.toLowerCase());
}

export function chatModelIds(): string[] {
  return MODELS.filter((m) => m.kind !== 'ocr').map((m) => m.id);
}

/** Nominal conversion used only when a platform does not list a model (shown as an estimate). */
const CNY_PER_USD = 7.2;

export interface Cost {
  amount: number;
  currency: Currency;
  covered: boolean;
}

export interface TokenCounts {
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  /** Answered through the Batch API. */
  batch?: boolean;
}

/**
 * Batch API calls cost about half (BigModel's Batch API guide: "价格降低 50%（GLM-4-Flash 免费）").
 * The per-model batch price list is not published as a table, so half the online price is an estimate.
 */
export const BATCH_PRICE_FACTOR = 0.5;

export function priceFor(model: ModelInfo | undefined, platform: Platform): Price | undefined {
  if (!model) return undefined;
  const own = model.prices[platform.pricing];
  if (own) return own;
  const other = platform.pricing === 'bigmodel' ? model.prices.zai : model.prices.bigmodel;
  if (!other) return undefined;
  const rate = platform.currency === 'CNY' ? CNY_PER_USD : 1 / CNY_PER_USD;
  return { input: other.input * rate, cachedInput: other.cachedInput * rate, output: other.output * rate };
}

/** Cost of some tokens on a model; cached prompt tokens are billed at the cached price. */
export function costOf(modelId: string, tokens: TokenCounts, platform: Platform): Cost {
  const covered = platform.coveredByPlan;
  const price = priceFor(findModel(modelId), platform);
  if (!price || covered) return { amount: 0, currency: platform.currency, covered };
  const uncached = Math.max(0, tokens.promptTokens - tokens.cachedTokens);
  const amount =
    (uncached * price.input +
      tokens.cachedTokens * price.cachedInput +
      tokens.completionTokens * price.output) /
    1_000_000;
  return {
    amount: tokens.batch ? amount * BATCH_PRICE_FACTOR : amount,
    currency: platform.currency,
    covered,
  };
}

export function formatCost(cost: Pick<Cost, 'amount' | 'currency'>): string {
  const symbol = cost.currency === 'CNY' ? '¥' : '$';
  const digits = cost.amount === 0 ? 2 : cost.amount < 0.01 ? 4 : 2;
  return `${symbol}${cost.amount.toFixed(digits)}`;
}
