import type { Skill } from '../../skills/schema.js';
import { ZhiError } from '../../support/errors.js';
import { traitsOf } from '../../tools/index.js';

/** Why this skill cannot be batched (it needs a person's answer mid-run), or undefined. */
export function batchBlocker(skill: Skill): ZhiError | undefined {
  // A composite skill's steps depend on each other: its combining call needs every file's result.
  const each = skill.args.find((a) => a.each)?.each;
  if (each) {
    return new ZhiError({
      kind: 'usage',
      what: { key: 'batch.err.composite', params: { skill: skill.name, each } },
      tries: [{ key: 'batch.try.noBatch' }],
    });
  }
  // A batch job cannot wait for a person's answer in the middle of a run.
  const blocked = skill.tools.filter((name) => traitsOf(name).needsPerson);
  if (!blocked.length) return undefined;
  return new ZhiError({
    kind: 'usage',
    what: { key: 'batch.err.needsPerson', params: { skill: skill.name, tools: blocked.join(', ') } },
    tries: [{ key: 'batch.try.noBatch' }],
  });
}
