import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ELIDE_BYTES, elideEarlierResults } from '../../src/agent/elide.js';
import type { Message } from '../../src/llm/types.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import type { AnyTool } from '../../src/tools/types.js';

const tool = (name: string, repeatable: boolean): AnyTool => ({
  name,
  description: name,
  schema: z.object({}),
  kind: 'read',
  ...(repeatable ? { traits: { repeatable } } : {}),
  execute: async () => '',
});

describe('large results of earlier turns', () => {
  it('leave the conversation when the tool can give them again; small ones and others stay', () => {
    const big = `[a.xlsx: Excel workbook]\n\n${'x'.repeat(ELIDE_BYTES + 1)}`;
    const messages: Message[] = [
      { role: 'system', content: 's' },
      { role: 'user', content: 'read' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { id: 'a', type: 'function', function: { name: 'file_read', arguments: '{"path":"a.xlsx"}' } },
          { id: 'b', type: 'function', function: { name: 'file_read', arguments: '{"path":"b.txt"}' } },
          { id: 'c', type: 'function', function: { name: 'shell', arguments: '{"command":"ls"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'a', content: big },
      { role: 'tool', tool_call_id: 'b', content: 'small' },
      { role: 'tool', tool_call_id: 'c', content: big },
    ];
    const tools = new ToolRegistry([tool('file_read', true), tool('shell', false)]);
    expect(elideEarlierResults(messages, tools)).toBe(1);
    expect(messages[3]!.content).toBe(
      '[Left out to save tokens: this file_read result (4.0 KB) was shown in an earlier turn. It began: [a.xlsx: Excel workbook]\nCall file_read with {"path":"a.xlsx"} again if you need it.]',
    );
    expect(messages[4]!.content).toBe('small');
    expect(messages[5]!.content).toBe(big);
    // Done once: a second pass changes nothing.
    expect(elideEarlierResults(messages, tools)).toBe(0);
  });
});
