/**
 * The model registry as data: what each GLM model can do and what it costs per million tokens
 * (CNY on BigModel, USD on Z.ai). Every price names its source and date; `unconfirmed` marks a
 * price read from a third-party copy or assumed, so the cost line can say "≈".
 *
 * Sources (see ../shared/reference/zhipu-api.md §9):
 *   pricing-zai  — docs.z.ai/guides/overview/pricing, copy of 2026-03 [H]; 2026-07-31 capture [M]
 *   bigmodel-m   — bigmodel.cn/pricing as mirrored in a third-party fixture, 2026-04 [M]
 *   bigmodel-glm4 — docs.bigmodel.cn/cn/guide/models/text/glm-4, 2026 [H]
 *   issue-14     — zhi issue 14 (glm-5.3-flash on Z.ai, released 2026-08-21) [M]
 */
import type { ModelInfo, Price, PriceTier } from './model-types.js';

const K = 1024;
const free = (source: string): Price => ({ input: 0, cachedInput: 0, output: 0, source });
const p = (
  input: number,
  cachedInput: number,
  output: number,
  source: string,
  unconfirmed = false,
): Price => ({
  input,
  cachedInput,
  output,
  source,
  ...(unconfirmed ? { unconfirmed } : {}),
});
const tier = (t: PriceTier): PriceTier => t;

/** BigModel prices GLM-4.5/4.6/4.7 by input length and output length (bigmodel-m, 2026-04). */
const glm47Bigmodel = (source: string): Price => ({
  ...p(2, 0.4, 8, source, true),
  tiers: [
    tier({ minOutput: 200, input: 3, cachedInput: 0.6, output: 14 }),
    // Above 32K input: not captured; assumed one step up, so long prompts are not underestimated.
    tier({ minInput: 32_000, input: 4, cachedInput: 0.8, output: 16 }),
  ],
});

const EFFORTS = ['low', 'medium', 'high', 'max'] as const;
const M = 1_000_000;

/**
 * The usual GLM chat model: thinking (optional), tools, tool streaming. `extra` says where one
 * differs. Sizes are [context window, maximum output] in tokens.
 */
function chat(
  id: string,
  [contextWindow, maxOutput]: [number, number],
  prices: ModelInfo['prices'],
  [description, descriptionZh]: [string, string],
  extra: Partial<ModelInfo> = {},
): ModelInfo {
  const base = { id, kind: 'chat' as const, contextWindow, maxOutput, thinking: true, tools: true };
  return { ...base, toolStream: true, prices, description, descriptionZh, ...extra };
}

const big = 'bigmodel-m 2026-04';
const zai = 'pricing-zai 2026-03';
const zaiJuly = 'pricing-zai 2026-07-31';
const glm45 = { toolStream: false };

export const MODEL_DATA: ModelInfo[] = [
  chat(
    'glm-5.3',
    [M, 128 * K],
    { bigmodel: p(8, 1.6, 28, big, true), zai: p(1.4, 0.26, 4.4, zaiJuly, true) },
    ['Newest flagship', '最新旗舰'],
    { thinkingForced: true, efforts: EFFORTS },
  ),
  // Z.ai price from issue 14 ("about"); BigModel's not captured: converted, flagged.
  chat(
    'glm-5.3-flash',
    [M, 128 * K],
    { bigmodel: null, zai: p(0.15, 0.03, 0.5, 'issue-14 2026-08', true) },
    ['Fast 5.3, 1M context', '快速版 5.3，1M 上下文'],
    { kind: 'vision', thinkingForced: true, efforts: EFFORTS },
  ),
  chat(
    'glm-5.2',
    [M, 128 * K],
    { bigmodel: p(8, 1.6, 28, big, true), zai: p(1.4, 0.26, 4.4, zaiJuly, true) },
    ['Flagship, 1M context', '旗舰，1M 上下文'],
    { efforts: EFFORTS },
  ),
  chat(
    'glm-5.1',
    [200_000, 128 * K],
    {
      bigmodel: {
        ...p(6, 1.2, 24, big, true),
        tiers: [tier({ minInput: 32_000, input: 8, cachedInput: 1.6, output: 28 })],
      },
      zai: p(1.4, 0.26, 4.4, zaiJuly, true),
    },
    ['Flagship', '旗舰'],
  ),
  chat(
    'glm-5',
    [200_000, 128 * K],
    {
      bigmodel: {
        ...p(4, 0.8, 18, big, true),
        tiers: [tier({ minInput: 32_000, input: 6, cachedInput: 1.2, output: 22 })],
      },
      zai: p(1.0, 0.2, 3.2, zai),
    },
    ['Default chat model: deep reasoning and tools', '默认对话模型：深度推理与工具调用'],
  ),
  chat('glm-5-turbo', [200_000, 128 * K], { bigmodel: null, zai: p(1.2, 0.24, 4.0, zai) }, [
    'Faster GLM-5',
    '更快的 GLM-5',
  ]),
  chat('glm-5-code', [200_000, 128 * K], { bigmodel: null, zai: p(1.2, 0.3, 5.0, zai) }, [
    'GLM-5 tuned for code',
    '面向编程的 GLM-5',
  ]),
  // Not on a captured price page: assumed equal to GLM-5-Turbo, flagged.
  chat(
    'glm-5v-turbo',
    [200_000, 32 * K],
    { bigmodel: null, zai: p(1.2, 0.24, 4.0, 'assumed = glm-5-turbo', true) },
    ['Vision GLM-5', '可看图的 GLM-5'],
    { kind: 'vision', toolStream: false },
  ),
  // Both platforms' thinking docs allow `disabled` (issue 14): optional, not forced.
  chat('glm-4.7', [200_000, 128 * K], { bigmodel: glm47Bigmodel(big), zai: p(0.6, 0.11, 2.2, zai) }, [
    'Strong all-rounder',
    '全能型，性价比高',
  ]),
  chat('glm-4.7-flash', [200_000, 128 * K], { bigmodel: free(big), zai: free(zai) }, [
    'Free, fast; the skill model on Z.ai',
    '免费、快速；Z.ai 上的技能模型',
  ]),
  chat(
    'glm-4.7-flashx',
    [200_000, 128 * K],
    { bigmodel: p(0.5, 0.1, 3, big, true), zai: p(0.07, 0.01, 0.4, zai) },
    ['Cheap and fast', '便宜又快'],
  ),
  chat(
    'glm-4.6',
    [200_000, 128 * K],
    { bigmodel: glm47Bigmodel(`${big} (as GLM-4.7)`), zai: p(0.6, 0.11, 2.2, zai) },
    ['Previous flagship', '上一代旗舰'],
  ),
  chat(
    'glm-4.5',
    [128_000, 96 * K],
    { bigmodel: glm47Bigmodel(`${big} (as GLM-4.7)`), zai: p(0.6, 0.11, 2.2, zai) },
    ['GLM-4.5', 'GLM-4.5'],
    glm45,
  ),
  chat(
    'glm-4.5-x',
    [128_000, 96 * K],
    { bigmodel: null, zai: p(2.2, 0.45, 8.9, zai) },
    ['Fast GLM-4.5', '高速版 GLM-4.5'],
    glm45,
  ),
  chat(
    'glm-4.5-air',
    [128_000, 96 * K],
    { bigmodel: p(0.8, 0.16, 2, big, true), zai: p(0.2, 0.03, 1.1, zai) },
    ['Light GLM-4.5', '轻量版 GLM-4.5'],
    glm45,
  ),
  chat(
    'glm-4.5-airx',
    [128_000, 96 * K],
    { bigmodel: null, zai: p(1.1, 0.22, 4.5, zai) },
    ['Fast light GLM-4.5', '高速轻量版 GLM-4.5'],
    glm45,
  ),
  chat(
    'glm-4.5-flash',
    [128_000, 96 * K],
    { bigmodel: free(big), zai: free(zai) },
    ['Free GLM-4.5', '免费的 GLM-4.5'],
    glm45,
  ),
  chat(
    'glm-4-32b-0414-128k',
    [128_000, 16 * K],
    { bigmodel: null, zai: p(0.1, 0.1, 0.1, zai) },
    ['Small open GLM-4 (Z.ai)', '开源小模型 GLM-4（Z.ai）'],
    { thinking: false, toolStream: false },
  ),
  ...glm4Family(),
  ...visionModels(),
  {
    id: 'glm-ocr',
    kind: 'ocr',
    contextWindow: 0,
    maxOutput: 0,
    thinking: false,
    tools: false,
    toolStream: false,
    prices: { bigmodel: p(0.2, 0.2, 0.2, big, true), zai: p(0.03, 0.03, 0.03, zai) },
    description: 'Layout parsing / OCR',
    descriptionZh: '版面解析 / OCR',
  },
  {
    // Not a model: the price of one web_search call, counted in the ledger like one.
    id: 'web-search',
    kind: 'search',
    contextWindow: 0,
    maxOutput: 0,
    thinking: false,
    tools: false,
    toolStream: false,
    prices: {
      // search_std on BigModel: ¥0.01 a search (docs.bigmodel.cn 网络搜索, not re-verified).
      bigmodel: { ...p(0, 0, 0, 'docs.bigmodel.cn web search 2026', true), perUse: 0.01 },
      // search-prime on Z.ai: $0.01 a use (pricing-zai 2026-03).
      zai: { ...p(0, 0, 0, 'pricing-zai 2026-03'), perUse: 0.01 },
    },
    description: 'Web search (per use)',
    descriptionZh: '网络搜索（按次计费）',
  },
];

/** The BigModel-side GLM-4 family (not served on Z.ai): 128K context, 4K output. */
function glm4Family(): ModelInfo[] {
  const m = (
    id: string,
    price: Price,
    description: string,
    descriptionZh: string,
    contextWindow = 128_000,
  ): ModelInfo => ({
    id,
    kind: 'chat',
    contextWindow,
    maxOutput: 4 * K,
    thinking: false,
    tools: true,
    toolStream: false,
    prices: { bigmodel: price, zai: null },
    description,
    descriptionZh,
  });
  return [
    m('glm-4-plus', p(5, 5, 5, 'bigmodel-glm4 2026'), 'GLM-4 flagship (BigModel)', 'GLM-4 旗舰（BigModel）'),
    m(
      'glm-4-air',
      p(0.5, 0.25, 0.5, 'bigmodel-m 2026-04', true),
      'Cheap GLM-4 (BigModel)',
      '便宜的 GLM-4（BigModel）',
    ),
    m(
      'glm-4-air-250414',
      p(0.5, 0.25, 0.5, 'bigmodel-m 2026-04', true),
      'Cheap GLM-4, April 2025 (BigModel)',
      '便宜的 GLM-4，2025 年 4 月版（BigModel）',
    ),
    m(
      'glm-4-airx',
      p(10, 10, 10, 'bigmodel-m 2026-04', true),
      'Fast GLM-4 (BigModel)',
      '高速 GLM-4（BigModel）',
      8_000,
    ),
    m(
      'glm-4-long',
      p(1, 1, 1, 'bigmodel-m 2026-04', true),
      'GLM-4 for long documents, 1M context (BigModel)',
      '长文档 GLM-4，1M 上下文（BigModel）',
      1_000_000,
    ),
    m(
      'glm-4-flashx',
      p(0.1, 0.05, 0.1, 'bigmodel-m 2026-04', true),
      'Very cheap GLM-4 (BigModel)',
      '极便宜的 GLM-4（BigModel）',
    ),
    m(
      'glm-4-flashx-250414',
      p(0.1, 0.05, 0.1, 'bigmodel-m 2026-04', true),
      'Very cheap GLM-4, April 2025 (BigModel)',
      '极便宜的 GLM-4，2025 年 4 月版（BigModel）',
    ),
    m(
      'glm-4-flash',
      free('bigmodel-glm4 2026'),
      'Free; the skill model on BigModel',
      '免费；BigModel 上的技能模型',
    ),
    m(
      'glm-4-flash-250414',
      free('bigmodel-glm4 2026'),
      'Free GLM-4, April 2025 (BigModel)',
      '免费 GLM-4，2025 年 4 月版（BigModel）',
    ),
  ];
}

function visionModels(): ModelInfo[] {
  const v = (
    id: string,
    contextWindow: number,
    maxOutput: number,
    prices: ModelInfo['prices'],
    extra: Partial<ModelInfo>,
    description: string,
    descriptionZh: string,
  ): ModelInfo => ({
    id,
    kind: 'vision',
    contextWindow,
    maxOutput,
    thinking: true,
    tools: true,
    toolStream: false,
    prices,
    description,
    descriptionZh,
    ...extra,
  });
  return [
    v(
      'glm-4.6v',
      128_000,
      32 * K,
      { bigmodel: p(1, 0.2, 3, 'bigmodel-m 2026-04', true), zai: p(0.3, 0.05, 0.9, 'pricing-zai 2026-03') },
      {},
      'Vision',
      '看图',
    ),
    v(
      'glm-4.6v-flash',
      128_000,
      32 * K,
      { bigmodel: free('bigmodel-m 2026-04'), zai: free('pricing-zai 2026-03') },
      {},
      'Free vision',
      '免费看图',
    ),
    v(
      'glm-4.6v-flashx',
      128_000,
      32 * K,
      { bigmodel: null, zai: p(0.04, 0.004, 0.4, 'pricing-zai 2026-03') },
      {},
      'Cheap vision',
      '便宜的看图模型',
    ),
    v(
      'glm-4.5v',
      64_000,
      16 * K,
      { bigmodel: p(2, 0.4, 6, 'bigmodel-m 2026-04', true), zai: p(0.6, 0.11, 1.8, 'pricing-zai 2026-03') },
      { thinkingForced: true, tools: false },
      // Its traits (sees images, always thinks, no tools) are listed after the description.
      'Older vision model',
      '较早的看图模型',
    ),
    v(
      'glm-4v-flash',
      8_000,
      1 * K,
      { bigmodel: free('bigmodel-glm4 2026'), zai: null },
      { thinking: false, tools: false },
      'Free vision (BigModel)',
      '免费看图（BigModel）',
    ),
  ];
}
