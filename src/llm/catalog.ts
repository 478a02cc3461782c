import type { ModelCatalog } from '../support/config.js';
import { chatModelIds, DEFAULT_CHAT_MODEL, DEFAULT_SKILL_MODEL, findModel } from './models.js';
import { isPlatformId, PLATFORM_IDS, PLATFORMS } from './platforms.js';

/** The model registry as config validation sees it (support/ cannot import llm/ itself). */
export const MODEL_CATALOG: ModelCatalog = {
  platformIds: PLATFORM_IDS,
  platformBaseUrl: (id) => (isPlatformId(id) ? PLATFORMS[id].baseUrl : ''),
  defaultChatModel: DEFAULT_CHAT_MODEL,
  defaultSkillModel: DEFAULT_SKILL_MODEL,
  modelIds: chatModelIds,
  knownModel: (id) => Boolean(findModel(id)),
};
