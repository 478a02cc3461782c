import { MAX_SKILL_DEPTH, type Skill } from '../../skills/schema.js';
import { ZhiError } from '../../support/errors.js';

/**
 * The one guard on nesting: a skill may not run inside its own chain (a cycle), nor deeper than
 * MAX_SKILL_DEPTH levels. Undefined when `skill` may run under `chain` (the skills above it).
 */
export function chainProblem(chain: readonly string[], skill: Pick<Skill, 'name'>): ZhiError | undefined {
  const path = [...chain, skill.name].join(' → ');
  if (chain.includes(skill.name)) {
    return new ZhiError({
      kind: 'usage',
      what: { key: 'skills.err.cycle', params: { name: skill.name, chain: path } },
    });
  }
  if (chain.length >= MAX_SKILL_DEPTH) {
    return new ZhiError({
      kind: 'usage',
      what: { key: 'skills.err.depth', params: { max: MAX_SKILL_DEPTH, chain: path } },
    });
  }
  return undefined;
}
