import { defineMessages } from '../define.js';

// Agent Skills (SKILL.md) by the specification: front matter rules, skills in chat, sharing.
export const agentskills = defineMessages(
  {
    'skills.source.project': 'project',
    'skills.spec.name':
      'the name "{name}" breaks the Agent Skills rules: lowercase letters, digits and single hyphens, not at the start or end, at most 64 characters',
    'skills.spec.folder': 'the name "{name}" must be the same as the skill\'s folder "{folder}"',
    'skills.spec.description': 'the description is {length} characters long; the limit is {max}',
    'skills.warn.modelFallback':
      'the skill {skill} asks for the model "{model}", which zhi does not know; it runs on {fallback} instead',
  },
  {
    'skills.source.project': '项目',
    'skills.spec.name':
      '名称 “{name}” 不符合 Agent Skills 规范：只能使用小写字母、数字和单个连字符，不能以连字符开头或结尾，最多 64 个字符',
    'skills.spec.folder': '名称 “{name}” 必须与技能文件夹名 “{folder}” 相同',
    'skills.spec.description': '描述长 {length} 个字符，上限是 {max}',
    'skills.warn.modelFallback':
      '技能 {skill} 要求使用模型 “{model}”，zhi 不认识该模型；改用 {fallback} 运行',
  },
);
