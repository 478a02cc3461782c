/** The chat's skill tool's name (chat-skill-tool.ts), alone so that naming it loads nothing else. */
export const CHAT_SKILL_TOOL = 'skill';
