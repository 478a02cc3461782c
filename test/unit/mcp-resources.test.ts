/** `@<server>:<uri>` in a message (which mentions are resources, how blocks join the content); MCP prompt arguments. */
import { describe, expect, it } from 'vitest';
import { promptArgs, promptUsage } from '../../src/cli/mcp/prompts.js';
import { resourceMentions, withBlocks } from '../../src/cli/mcp/resources.js';

describe('resource mentions', () => {
  it.each([
    ['Summarize @notes:notes://today please', [{ server: 'notes', uri: 'notes://today' }]],
    ['总结 @notes:notes://today，谢谢', [{ server: 'notes', uri: 'notes://today' }]],
    ['(see @notes:file:///a/b.md).', [{ server: 'notes', uri: 'file:///a/b.md' }]],
    ['mail me@notes:x', []],
    ['@other:notes://today is not a server here', []],
    [
      '@notes:notes://a @notes:notes://a @notes:notes://b',
      [
        { server: 'notes', uri: 'notes://a' },
        { server: 'notes', uri: 'notes://b' },
      ],
    ],
    ['@notes: nothing after the colon', []],
  ])('%s', (text, want) => {
    expect(resourceMentions(text, ['notes', 'db'])).toEqual(want);
  });

  it('blocks go after the text, before images', () => {
    expect(withBlocks('hi', ['<r/>'])).toBe('hi\n\n<r/>');
    expect(withBlocks('hi', [])).toBe('hi');
    const image = { type: 'image_url' as const, image_url: { url: 'data:' } };
    expect(withBlocks([{ type: 'text', text: 'hi' }, image], ['<r/>'])).toEqual([
      { type: 'text', text: 'hi\n\n<r/>' },
      image,
    ]);
  });
});

describe('MCP prompt arguments', () => {
  const prompt = {
    arguments: [{ name: 'table', required: true }, { name: 'style' }],
  };
  it.each([
    ['users', { args: { table: 'users' } }],
    ['users in three bullets', { args: { table: 'users', style: 'in three bullets' } }],
    ['style=short table=orders', { args: { table: 'orders', style: 'short' } }],
    ['style="very short" users', { args: { table: 'users', style: 'very short' } }],
    ['', { missing: ['table'] }],
    ['style=short', { missing: ['table'] }],
    ['a=b', { args: { table: 'a=b' } }],
  ])('%j', (text, want) => {
    expect(promptArgs(prompt, text)).toEqual(want);
  });

  it('says how it is typed', () => {
    expect(promptUsage(prompt)).toBe('<table> [style]');
  });
});
