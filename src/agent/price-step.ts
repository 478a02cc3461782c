/**
 * Price steps by prompt size (issue 31): BigModel bills glm-5's input at ¥6 instead of ¥4 per
 * million tokens once a call's prompt passes 32k tokens, so a conversation that grew past that
 * costs half as much again per call without anyone noticing. Before a call that is in a dearer
 * step than the model's base price, the person is told once per model and step (in their
 * language); /usage shows the step the conversation is in now.
 */
import { findModel, formatCost, priceFor, tierFor } from '../llm/models.js';
import type { Platform } from '../llm/platforms.js';
import { maxOf } from '../support/arrays.js';
import { t } from '../support/i18n/index.js';

export interface InputStep {
  /** Input price per million tokens at this prompt size. */
  input: number;
  /** Where the step this size is in starts (0: the base price). */
  from: number;
  /** The next dearer step, when there is one. */
  next?: { from: number; input: number };
  currency: Platform['currency'];
}

/** The input price step of a prompt of `tokens` on `model`; undefined when its price has no input steps. */
export function inputStep(model: string, platform: Platform, tokens: number): InputStep | undefined {
  if (platform.coveredByPlan) return undefined;
  const price = priceFor(findModel(model), platform);
  // Steps by output length (GLM-4.7's) are not a property of the conversation: only input steps.
  const steps = (price?.tiers ?? []).filter((s) => s.minInput && !s.minOutput);
  if (!price || !steps.length) return undefined;
  const at = (n: number) => tierFor(price, { promptTokens: n, completionTokens: 0, cachedTokens: 0 });
  const from = maxOf(
    steps.filter((s) => s.minInput! <= tokens).map((s) => s.minInput!),
    0,
  );
  const next = steps.filter((s) => s.minInput! > tokens).sort((a, b) => a.minInput! - b.minInput!)[0];
  return {
    input: at(tokens).input,
    from,
    ...(next ? { next: { from: next.minInput!, input: at(next.minInput!).input } } : {}),
    currency: platform.currency,
  };
}

const perMillion = (amount: number, currency: Platform['currency']) => formatCost({ amount, currency });
/** As the status line and /usage write a count (9.1k, 32k; 850 under a thousand), so the figures agree. */
const thousands = (n: number) => (n < 1000 ? String(Math.round(n)) : `${Number((n / 1000).toFixed(1))}k`);

/** Warns once per model and step when a call is about to be priced above the model's base input price. */
export class PriceStepWatch {
  private readonly warned = new Set<string>();

  constructor(
    private readonly platform: Platform,
    private readonly model: () => string,
  ) {}

  /** The notice for a call of about `tokens` prompt tokens, or undefined. */
  check(tokens: number): string | undefined {
    const model = this.model();
    const step = inputStep(model, this.platform, tokens);
    if (!step || step.from === 0) return undefined;
    const key = `${model}:${step.from}`;
    if (this.warned.has(key)) return undefined;
    this.warned.add(key);
    const base = inputStep(model, this.platform, 0)!;
    return t('agent.priceStep', {
      model,
      tokens: thousands(tokens),
      step: thousands(step.from),
      price: perMillion(step.input, step.currency),
      base: perMillion(base.input, base.currency),
    });
  }
}

/** The /usage line: the step a request of the conversation's size is priced at now. */
export function priceStepLine(model: string, platform: Platform, tokens: number): string | undefined {
  const step = inputStep(model, platform, tokens);
  if (!step) return undefined;
  const price = perMillion(step.input, step.currency);
  const where = step.next
    ? t('agent.priceStep.next', {
        step: thousands(step.next.from),
        price: perMillion(step.next.input, step.currency),
      })
    : t('agent.priceStep.above', { step: thousands(step.from) });
  return t('agent.priceStep.now', { model, tokens: thousands(tokens), price, where });
}
