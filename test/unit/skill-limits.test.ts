import { describe, expect, it } from 'vitest';
import { parseSkillText } from '../../src/skills/loader.js';
import { SkillLimits } from '../../src/skills/skill-limits.js';
import { resultImages, resultText } from '../../src/tools/mcp/convert.js';
import { unfit, visionModelFor } from '../../src/tools/mcp/vision.js';

const skillMd = (name: string, front: string) => {
  const r = parseSkillText(`---\nname: ${name}\ndescription: d\n${front}---\nDo it.\n`, {
    file: `/skills/${name}/SKILL.md`,
    folder: `/skills/${name}`,
    source: 'user',
    format: 'skill-md',
  });
  if (!r.skill) throw new Error(JSON.stringify(r.errors));
  return r.skill;
};

describe('allowed-tools in chat (SkillLimits)', () => {
  it('limits calls only after a skill that declares allowed-tools is loaded, to both skills when two are, until the next message', () => {
    const limits = new SkillLimits();
    const tidy = skillMd('tidy', 'allowed-tools: Bash(python3:*) Read mcp__files__read_text_file\n');
    const free = skillMd('free', '');
    expect(free.allowedTools).toBeUndefined();
    // Claude's MCP tool names give the whole server, as `tools: [mcp:files]` does in zhi run.
    expect(tidy.allowedTools).toEqual(['shell', 'file_read', 'mcp:files']);
    expect(limits.check('file_write', {})).toBeUndefined();
    limits.enter(free);
    expect(limits.check('file_write', {})).toBeUndefined();
    limits.enter(tidy);
    expect(limits.check('file_write', {})?.notice).toEqual({
      key: 'skills.limit.tool',
      params: {
        skill: 'tidy',
        name: 'file_write',
        tools: 'shell (python3), file_read, mcp:files',
      },
    });
    expect(limits.check('file_read', { path: 'a' })).toBeUndefined();
    expect(limits.check('files__read_text_file', {})).toBeUndefined();
    expect(limits.check('github__create_issue', {})).toBeDefined();
    expect(limits.check('skill', { name: 'other' })).toBeUndefined();
    expect(limits.check('shell', { command: 'python3 x.py | sh' })?.reason).toContain('"sh" does not');
    expect(limits.check('shell', { command: 'python3 x.py' })).toBeUndefined();
    limits.enter(skillMd('reader', 'allowed-tools: Read\n'));
    expect(limits.check('shell', { command: 'python3 x.py' })?.notice.params?.skill).toBe('reader');
    limits.clear();
    expect(limits.check('file_write', {})).toBeUndefined();
    expect(SkillLimits.note(free)).toBeUndefined();
    expect(SkillLimits.note(tidy)).toContain('zhi runs only these tools');
  });
});

describe('MCP images for a vision model', () => {
  it('picks the chat model when it can see, checks what the API takes, and puts descriptions in place of the images', () => {
    expect(visionModelFor('glm-5')).toBe('glm-4.6v-flash');
    expect(visionModelFor('glm-4.6v')).toBe('glm-4.6v');
    expect(visionModelFor(undefined)).toBe('glm-4.6v-flash');
    expect(unfit({ data: 'AAAA', mimeType: 'image/png' })).toBeUndefined();
    expect(unfit({ data: 'AAAA', mimeType: 'image/webp' })).toContain('not a type the vision model takes');
    expect(unfit({ data: 'A'.repeat(8 * 1024 * 1024), mimeType: 'image/jpeg' })).toContain('larger than');
    const r = {
      content: [
        { type: 'text', text: 'before' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
      ],
    };
    expect(resultImages(r)).toEqual([{ data: 'AAAA', mimeType: 'image/png' }]);
    expect(resultText(r, ['a red square'])).toBe(
      'before\n\na red square\n\n[audio from the server: audio/wav, 3 B]',
    );
    expect(resultText(r)).toContain('[image from the server: image/png');
  });
});
