/** Zhipu platforms and their endpoints (reference §1.1). */
export type PlatformId = 'bigmodel' | 'zai' | 'bigmodel-coding' | 'zai-coding' | 'openrouter' | 'custom';
export type Currency = 'CNY' | 'USD';

export interface Platform {
  id: PlatformId;
  baseUrl: string;
  currency: Currency;
  /** Which price table applies. */
  pricing: 'bigmodel' | 'zai';
  /** Coding-plan endpoints are paid by subscription: per-token cost is covered by the plan. */
  coveredByPlan: boolean;
  /** A free model used to check a key cheaply (reference §6). */
  probeModel: string;
  /**
   * The default skill model: a free model the platform really serves (BigModel: GLM-4-Flash,
   * "免费语言模型" on its GLM-4 page; Z.ai has no GLM-4-Flash, its free models are GLM-4.7-Flash
   * and GLM-4.5-Flash; coding plans cover GLM-4.7, run with thinking off).
   */
  skillModel: string;
  /** Where a person gets a key (none for a custom address: its provider's own page). */
  keyUrl: string | undefined;
  /**
   * A platform that names the registry's models its own way (OpenRouter: `z-ai/glm-4.6`): the
   * prefix the client puts before a model id on the wire. Everything else in zhi (choice,
   * capabilities, prices, the ledger) uses the registry's id.
   */
  modelPrefix?: string;
}

const BIGMODEL: Platform = {
  id: 'bigmodel',
  baseUrl: 'https://open.bigmodel.cn/api/paas/v4',
  currency: 'CNY',
  pricing: 'bigmodel',
  coveredByPlan: false,
  probeModel: 'glm-4-flash',
  skillModel: 'glm-4-flash',
  keyUrl: 'https://open.bigmodel.cn/usercenter/apikeys',
};

export const PLATFORMS: Record<PlatformId, Platform> = {
  bigmodel: BIGMODEL,
  zai: {
    id: 'zai',
    baseUrl: 'https://api.z.ai/api/paas/v4',
    currency: 'USD',
    pricing: 'zai',
    coveredByPlan: false,
    probeModel: 'glm-4.5-flash',
    skillModel: 'glm-4.7-flash',
    keyUrl: 'https://z.ai/manage-apikey/apikey-list',
  },
  'bigmodel-coding': {
    id: 'bigmodel-coding',
    baseUrl: 'https://open.bigmodel.cn/api/coding/paas/v4',
    currency: 'CNY',
    pricing: 'bigmodel',
    coveredByPlan: true,
    probeModel: 'glm-4.7',
    skillModel: 'glm-4.7',
    keyUrl: 'https://open.bigmodel.cn/usercenter/apikeys',
  },
  'zai-coding': {
    id: 'zai-coding',
    baseUrl: 'https://api.z.ai/api/coding/paas/v4',
    currency: 'USD',
    pricing: 'zai',
    coveredByPlan: true,
    probeModel: 'glm-4.7',
    skillModel: 'glm-4.7',
    keyUrl: 'https://z.ai/manage-apikey/apikey-list',
  },
  // OpenRouter: one key for many vendors, GLM models among them as `z-ai/<id>` (the same chat
  // API; thinking and request_id are ignored there). Chat only: OCR, the Batch API and web search
  // are Zhipu's own endpoints and answer 404. Priced at Z.ai's list prices (OpenRouter passes
  // the provider's price on; another host of the same model may differ).
  openrouter: {
    id: 'openrouter',
    baseUrl: 'https://openrouter.ai/api/v1',
    currency: 'USD',
    pricing: 'zai',
    coveredByPlan: false,
    probeModel: 'glm-4.5-air',
    skillModel: 'glm-4.5-air',
    keyUrl: 'https://openrouter.ai/settings/keys',
    modelPrefix: 'z-ai/',
  },
  // Another address serving the same API (a proxy, a private deployment): priced as BigModel.
  custom: { ...BIGMODEL, id: 'custom', baseUrl: '', keyUrl: undefined },
};

export const PLATFORM_IDS = Object.keys(PLATFORMS) as PlatformId[];

export function isPlatformId(v: string): v is PlatformId {
  return v in PLATFORMS;
}
