import type { ModelCatalog } from '../support/config.js';
import { chooseModel } from './choose.js';
import { chatModelIds, DEFAULT_CHAT_MODEL, DEFAULT_SKILL_MODEL } from './models.js';
import { isPlatformId, PLATFORM_IDS, PLATFORMS } from './platforms.js';

/** The model registry as config validation sees it (support/ cannot import llm/ itself). */
export const MODEL_CATALOG: ModelCatalog = {
  platformIds: PLATFORM_IDS,
  platformBaseUrl: (id) => (isPlatformId(id) ? PLATFORMS[id].baseUrl : ''),
  defaultChatModel: DEFAULT_CHAT_MODEL,
  defaultSkillModel: (platform) =>
    isPlatformId(platform) ? PLATFORMS[platform].skillModel : DEFAULT_SKILL_MODEL,
  modelIds: chatModelIds,
  // chooseModel decides: a GLM id zhi does not know is allowed (it runs with a warning); other
  // unknown ids, ids that cannot be a model name, and OCR models are refused.
  knownModel: (id) =>
    chooseModel([{ model: id, source: 'config' }], { platform: { id: 'bigmodel' }, role: 'chat' }).ok,
};
