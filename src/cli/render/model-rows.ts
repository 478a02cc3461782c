import { formatCost, isFree, MODELS, type ModelInfo, priceFor } from '../../llm/models.js';
import type { Platform } from '../../llm/platforms.js';
import { getLanguage, t } from '../../support/i18n/index.js';

/**
 * The registry as table rows for a person: id, price on this platform (input/output per million
 * tokens, "≈" where unconfirmed, "free"), and a localized description with its traits. Shared by
 * `/model` and `zhi models`.
 */
export function modelRows(platform: Platform, current?: string): string[][] {
  return MODELS.filter((m) => m.kind === 'chat' || m.kind === 'vision').map((m) => {
    const mark = current === undefined ? '' : m.id === current.toLowerCase() ? '▸ ' : '  ';
    return [`${mark}${m.id}`, priceText(m, platform), describe(m)];
  });
}

export function priceText(m: ModelInfo, platform: Platform): string {
  if (platform.coveredByPlan) return t('render.covered');
  const price = priceFor(m, platform);
  if (!price) return '–';
  if (isFree(m, platform)) return t('repl.model.free');
  const currency = platform.currency;
  const approx = Boolean(price.unconfirmed);
  const tiers = price.tiers?.length ? '+' : '';
  return `${formatCost({ amount: price.input, currency, approx })}/${formatCost({ amount: price.output, currency })}${tiers}`;
}

function describe(m: ModelInfo): string {
  const zh = getLanguage() === 'zh';
  const text = zh ? m.descriptionZh : m.description;
  // A description that says so already ("Free vision", "免费看图") is not told it again.
  const saysVision = /vision|看图/i.test(text);
  const traits = [
    m.kind === 'vision' && !saysVision ? t('repl.model.visionShort') : '',
    !m.thinking ? t('repl.model.noThinking') : m.thinkingForced ? t('repl.model.alwaysThinks') : '',
    m.efforts?.length ? t('repl.model.efforts') : '',
    !m.tools ? t('repl.model.noToolsShort') : '',
  ].filter(Boolean);
  if (!traits.length) return text;
  return zh ? `${text}（${traits.join('、')}）` : `${text} (${traits.join(', ')})`;
}
