/**
 * The prefix of a skill offered to the model as a tool (`skill_<name>`). Apart from schema.ts so
 * that naming a skill tool does not load zod (`zhi skill list` resolves names, never validates).
 */
export const SKILL_TOOL_PREFIX = 'skill_';
