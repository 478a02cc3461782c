import { MODEL_DATA } from './model-data.js';
import type { Effort, ModelInfo, Price, PriceTier } from './model-types.js';
import type { Currency, Platform } from './platforms.js';

export type { Effort, ModelInfo, Price, PriceTier } from './model-types.js';

/** The registry (data and sources in model-data.ts). */
export const MODELS: ModelInfo[] = MODEL_DATA;

const byId = new Map(MODELS.map((m) => [m.id, m]));

export const DEFAULT_CHAT_MODEL = 'glm-5';
export const DEFAULT_SKILL_MODEL = 'glm-4-flash';
export const DEFAULT_VISION_MODEL = 'glm-4.6v-flash';

/** Look a model up by id, case-insensitively (the API accepts `GLM-5` too). */
export function findModel(id: string): ModelInfo | undefined {
  return byId.get(id.toLowerCase());
}

/**
 * A model zhi does not know is allowed, with conservative capabilities: chat with tools, no
 * tool streaming, no effort levels, a 128K window, no price. Facts a client learned about it
 * (`PlatformClient.modelInfo` passes them) are applied on top.
 */
export function modelInfo(id: string, learned?: Partial<Pick<ModelInfo, 'thinkingForced'>>): ModelInfo {
  const known = findModel(id);
  const caps = learned ?? {};
  if (known) return learned ? { ...known, ...caps } : known;
  return {
    id,
    kind: 'chat',
    contextWindow: 128_000,
    maxOutput: 8 * 1024,
    thinking: true,
    tools: true,
    toolStream: false,
    prices: { bigmodel: null, zai: null },
    description: "Not in zhi's registry",
    descriptionZh: '不在 zhi 的模型表中',
    unknown: true,
    ...caps,
  };
}

export function chatModelIds(): string[] {
  return MODELS.filter((m) => m.kind === 'chat' || m.kind === 'vision').map((m) => m.id);
}

/** Free models: every price on the platform's table is zero. */
export function isFree(model: ModelInfo, platform: Pick<Platform, 'pricing'>): boolean {
  const price = model.prices[platform.pricing];
  return Boolean(price && price.input === 0 && price.output === 0 && !price.tiers?.length);
}

/** The effort to send: the requested one if the model takes it, else none. */
export function effortFor(model: ModelInfo, requested: Effort | undefined): Effort | undefined {
  return requested && model.efforts?.includes(requested) ? requested : undefined;
}

/** When a model is not in the registry (custom endpoints), assume this context window. */
export const DEFAULT_WINDOW = 128_000;

/** Nominal conversion used only when a platform does not list a model (shown as an estimate). */
const CNY_PER_USD = 7.2;

export interface Cost {
  amount: number;
  currency: Currency;
  covered: boolean;
  /** The price is unconfirmed, converted or unknown: show "≈". */
  approx?: boolean;
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
  const scale = (t: PriceTier): PriceTier => ({
    ...t,
    input: t.input * rate,
    cachedInput: t.cachedInput * rate,
    output: t.output * rate,
  });
  return {
    ...scale(other),
    ...(other.tiers ? { tiers: other.tiers.map(scale) } : {}),
    ...(other.perUse !== undefined ? { perUse: other.perUse * rate } : {}),
    source: `${other.source ?? ''} (converted)`.trim(),
    unconfirmed: true,
  };
}

/** The price step that applies to one call of this size. */
export function tierFor(price: Price, tokens: TokenCounts): PriceTier {
  let chosen: PriceTier = price;
  for (const t of price.tiers ?? []) {
    if (tokens.promptTokens >= (t.minInput ?? 0) && tokens.completionTokens >= (t.minOutput ?? 0)) chosen = t;
  }
  return chosen;
}

/** Cost of one call on a model; cached prompt tokens are billed at the cached price. */
export function costOf(modelId: string, tokens: TokenCounts, platform: Platform): Cost {
  const covered = platform.coveredByPlan;
  const price = priceFor(findModel(modelId), platform);
  if (covered) return { amount: 0, currency: platform.currency, covered };
  if (!price) return { amount: 0, currency: platform.currency, covered, approx: true };
  const step = tierFor(price, tokens);
  const uncached = Math.max(0, tokens.promptTokens - tokens.cachedTokens);
  const amount =
    (uncached * step.input + tokens.cachedTokens * step.cachedInput + tokens.completionTokens * step.output) /
      1_000_000 +
    (price.perUse ?? 0);
  return {
    amount: tokens.batch ? amount * BATCH_PRICE_FACTOR : amount,
    currency: platform.currency,
    covered,
    ...(price.unconfirmed ? { approx: true } : {}),
  };
}

export function formatCost(cost: Pick<Cost, 'amount' | 'currency' | 'approx'>): string {
  const symbol = cost.currency === 'CNY' ? '¥' : '$';
  const digits = cost.amount === 0 ? 2 : cost.amount < 0.01 ? 4 : 2;
  return `${cost.approx ? '≈' : ''}${symbol}${cost.amount.toFixed(digits)}`;
}
