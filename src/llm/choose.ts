/**
 * The one decision of which model a run uses. Every place that picks a model — the chat at
 * start-up (`--model`, environment, config), `/model`, `--resume`/`/resume`, a skill run
 * (`--model`, the skill's own, `skill_model`) and `zhi skill new` — lists its candidates, most
 * specific first, and this function picks and checks one against the registry.
 */
import { findModel, type ModelInfo, modelInfo } from './models.js';
import type { Platform } from './platforms.js';

/** Where a candidate came from (said in warnings and errors). */
export type ModelSource = '--model' | '/model' | 'skill' | 'session' | 'config' | 'default' | `$${string}`;

export interface ModelCandidate {
  model: string | undefined;
  source: ModelSource;
  /**
   * Try the next candidate instead of refusing when this one fails for one of these reasons (a
   * skill's model named for another platform). `true`: for any reason, and also when zhi does not
   * know the model (a resumed session's model).
   */
  optional?: true | readonly ModelProblem[];
}

export interface ChooseOptions {
  platform: Pick<Platform, 'id'>;
  /** Chat and skills alike take a GLM id zhi does not know (with a warning), nothing else unknown. */
  role: 'chat' | 'skill';
  /** The run needs tool calling (a skill with tools). */
  needsTools?: boolean;
}

export type ModelProblem = 'invalid' | 'unknown' | 'ocr' | 'no_tools' | 'none';

export type ModelChoice =
  | {
      ok: true;
      model: string;
      source: ModelSource;
      info: ModelInfo;
      /** Not in zhi's registry: allowed, with a warning (never on a custom endpoint). */
      unknown: boolean;
    }
  | { ok: false; model: string; source: ModelSource; problem: ModelProblem };

/** Ids that can name a model at all (anything else is a typo, never sent). */
const WELL_FORMED = /^[a-z0-9][a-z0-9._:/-]{0,99}$/i;

/** The first candidate that is given and usable; the first given one that is not, if it is not optional. */
export function chooseModel(candidates: ModelCandidate[], o: ChooseOptions): ModelChoice {
  for (const c of candidates) {
    if (!c.model) continue;
    const choice = check(c.model, c.source, o);
    if (choice.ok && !(c.optional === true && choice.unknown)) return choice;
    if (!choice.ok && !(c.optional === true || c.optional?.includes(choice.problem))) return choice;
  }
  return { ok: false, model: '', source: 'default', problem: 'none' };
}

function check(raw: string, source: ModelSource, o: ChooseOptions): ModelChoice {
  const model = raw.trim().toLowerCase();
  if (!WELL_FORMED.test(model)) return { ok: false, model: raw, source, problem: 'invalid' };
  // A custom endpoint serves models zhi cannot know: each is taken as is.
  if (o.platform.id === 'custom') return { ok: true, model, source, info: modelInfo(model), unknown: false };
  const known = findModel(model);
  if (!known) {
    // A GLM model newer than zhi's registry runs as is (with a warning); anything else on a
    // Zhipu platform is a typo or another vendor's model, which would only fail with 1211.
    if (!isGlmFamily(model)) return { ok: false, model, source, problem: 'unknown' };
    return { ok: true, model, source, info: modelInfo(model), unknown: true };
  }
  if (known.kind === 'ocr') return { ok: false, model: known.id, source, problem: 'ocr' };
  if (o.needsTools && !known.tools) return { ok: false, model: known.id, source, problem: 'no_tools' };
  return { ok: true, model: known.id, source, info: modelInfo(known.id), unknown: false };
}

/** Zhipu's own model families: ids zhi may not know yet but the platform may serve. */
export function isGlmFamily(model: string): boolean {
  return /^(glm|chatglm|codegeex|charglm|emohaa)-[a-z0-9][a-z0-9._-]*$/.test(model);
}
