import { describe, expect, it } from 'vitest';
import { decide } from '../../src/agent/permissions.js';
import { mcpServersProblem, normalizeServer } from '../../src/support/mcp-config.js';
import { mcpKind, mcpToolName, resultText, trimSchema } from '../../src/tools/mcp/convert.js';

describe('MCP permissions', () => {
  it('asks for every call of an untrusted server, runs read-trusted ones, and runs auto-trusted ones only in auto mode with a person there', () => {
    expect(decide(mcpKind('ask'), 'approve', true)).toBe('ask');
    expect(decide(mcpKind('ask'), 'auto', true)).toBe('ask');
    expect(decide(mcpKind('ask'), 'auto', false)).toBe('deny');
    expect(decide(mcpKind('auto'), 'approve', true)).toBe('ask');
    expect(decide(mcpKind('auto'), 'auto', true)).toBe('allow');
    expect(decide(mcpKind('auto'), 'auto', false)).toBe('deny');
    expect(decide(mcpKind('read'), 'approve', false)).toBe('allow');
  });
});

describe('mcp_servers in config.yaml', () => {
  it('names the problem of a bad entry', () => {
    expect(mcpServersProblem({ files: { command: 'node', args: ['x'] } })).toBeUndefined();
    expect(mcpServersProblem({ 'bad name': { command: 'x' } })).toContain('server name "bad name"');
    expect(mcpServersProblem({ a: { command: 'x', url: 'https://e.com' } })).toContain(
      'either a command or a url',
    );
    expect(mcpServersProblem({ a: { url: 'ftp://e.com' } })).toContain('http(s)');
    expect(mcpServersProblem({ a: { command: 'x', trust: 'yes' } })).toContain(
      'trust must be one of ask, read, auto',
    );
    expect(mcpServersProblem({ a: { command: 'x', tools: [] } })).toContain('unknown setting "tools"');
    expect(mcpServersProblem(['x'])).toBe('mcp_servers must map names to servers');
    expect(normalizeServer({ command: 'x', env: { N: 1 } })).toEqual({
      command: 'x',
      env: { N: '1' },
      trust: 'ask',
    });
  });
});

describe('MCP tools for GLM', () => {
  it('trims schemas to the keywords GLM accepts and names tools <server>__<tool>', () => {
    expect(mcpToolName('files', 'read.file')).toBe('files__read_file');
    expect(mcpToolName('s', 'x'.repeat(80))).toHaveLength(64);
    expect(
      trimSchema({
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        additionalProperties: false,
        properties: { path: { type: 'string', format: 'uri', description: 'd', title: 'Path' } },
        required: ['path'],
      }),
    ).toEqual({
      type: 'object',
      properties: { path: { type: 'string', description: 'd' } },
      required: ['path'],
    });
    expect(trimSchema(undefined)).toEqual({ type: 'object', properties: {} });
  });

  it('turns text, images and resources into text and never pastes binary data', () => {
    const text = resultText({
      content: [
        { type: 'text', text: 'hello' },
        { type: 'image', data: 'A'.repeat(4000), mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'file:///a.md', text: '# A' } },
        { type: 'resource', resource: { uri: 'file:///b.bin', blob: 'AAAA', mimeType: 'application/pdf' } },
      ],
    });
    expect(text).toContain('hello');
    expect(text).toContain('[image from the server: image/png, 2.9 KB]');
    expect(text).toContain('<resource uri="file:///a.md">\n# A\n</resource>');
    expect(text).toContain('[resource file:///b.bin: application/pdf');
    expect(text).not.toContain('AAAA');
    expect(resultText({ content: [], structuredContent: { n: 1 } })).toBe('{\n  "n": 1\n}');
  });
});
