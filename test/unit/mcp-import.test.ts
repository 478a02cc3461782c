/** `.mcp.json` (Claude Code's format) read as zhi's mcp_servers entries. */
import { describe, expect, it } from 'vitest';
import { mcpProblemText } from '../../src/support/mcp-config.js';
import { importMcpJson } from '../../src/support/mcp-import.js';

describe('zhi mcp import', () => {
  it('turns stdio, http and sse entries into zhi entries; says what it cannot use', () => {
    const got = importMcpJson(
      JSON.stringify({
        mcpServers: {
          files: {
            command: 'npx',
            args: ['-y', '@modelcontextprotocol/server-filesystem', '.'],
            env: { A: '1' },
          },
          remote: { type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer x' } },
          old: { type: 'sse', url: 'https://example.com/sse' },
          'bad name': { command: 'x' },
          neither: { type: 'stdio' },
        },
      }),
    )!;
    expect(got.servers).toEqual({
      files: {
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '.'],
        env: { A: '1' },
      },
      remote: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer x' } },
      old: { url: 'https://example.com/sse', transport: 'sse' },
    });
    expect(got.problems.map((p) => p.name)).toEqual(['bad name', 'neither']);
    expect(mcpProblemText(got.problems[1]!)).toContain('either a command or a url');
  });

  it.each(['not json', '[]', '{"servers": {}}', '{"mcpServers": []}'])('%s is not a .mcp.json', (text) => {
    expect(importMcpJson(text)).toBeUndefined();
  });
});
