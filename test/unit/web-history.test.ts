import { describe, expect, it } from 'vitest';
import { historyItems } from '../../src/cli/web/history.js';
import { Router } from '../../src/cli/web/router.js';
import type { Message } from '../../src/llm/types.js';
import { areaStrings } from '../../src/support/i18n/index.js';

describe('historyItems', () => {
  it('draws what the person typed, the answers, and one line per tool result', () => {
    const messages: Message[] = [
      { role: 'system', content: 'You are zhi.' },
      {
        role: 'user',
        content:
          'what is in it?\n\n<document name="notes.md" path="/w/zhi-uploads/notes.md">\nsecret plan\n</document>',
      },
      {
        role: 'assistant',
        content: '',
        reasoning_content: 'Read it first.',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'file_read', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'The file says:\nhello' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'c2', type: 'function', function: { name: 'shell', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c2', content: 'Error: The user declined this tool call.' },
      { role: 'assistant', content: 'It says hello.' },
    ];
    const items = historyItems(messages);
    expect(items[0]).toEqual({ role: 'user', text: 'what is in it?', attachments: ['notes.md'] });
    expect(items[1]).toEqual({ role: 'assistant', text: '', thinking: 'Read it first.' });
    expect(items[2]).toMatchObject({
      role: 'tool',
      name: 'file_read',
      ok: true,
      summary: 'The file says: hello',
    });
    expect(items[3]).toMatchObject({ role: 'tool', name: 'shell', ok: false });
    expect(items[4]).toEqual({ role: 'assistant', text: 'It says hello.' });
    expect(items).toHaveLength(5);
  });
});

describe('Router', () => {
  const router = new Router()
    .add('GET', '/api/things/:id', () => [200, 'one'])
    .add('POST', '/api/things/:id/stop', () => [200, 'stop']);
  it.each([
    ['GET', '/api/things/a%20b', { id: 'a b' }],
    ['POST', '/api/things/x/stop', { id: 'x' }],
  ])('%s %s', (method, path, params) => expect(router.find(method, path).params).toEqual(params));
  it.each([
    ['GET', '/api/nothing', 404],
    ['DELETE', '/api/things/x', 405],
    ['GET', '/api/things/%E0%A4%A', 404],
    ['GET', '/api/things/x/y', 404],
  ])('%s %s → %i', (method, path, status) =>
    expect(() => router.find(method, path)).toThrow(expect.objectContaining({ status })));
});

describe('areaStrings', () => {
  it("gives one area's keys in the language asked, English filling none missing", () => {
    const en = areaStrings('web', 'en');
    const zh = areaStrings('web', 'zh');
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
    expect(Object.keys(en).every((k) => k.startsWith('web.'))).toBe(true);
    expect(zh['web.err.busy']).toBe('这个对话还在回答中。');
    expect(areaStrings('no-such-area', 'zh')).toEqual({});
  });
});
