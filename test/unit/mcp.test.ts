import { describe, expect, it } from 'vitest';
import { decide } from '../../src/agent/permissions.js';
import { setLanguage } from '../../src/support/i18n/index.js';
import {
  isServerMap,
  mcpProblemText,
  mcpServersProblems,
  normalizeServer,
} from '../../src/support/mcp-config.js';
import { mcpKind, mcpToolName, resultText } from '../../src/tools/mcp/convert.js';
import { mcpCause } from '../../src/tools/mcp/errors.js';
import { glmSchema as trimSchema } from '../../src/tools/mcp/schema.js';

describe('MCP permissions', () => {
  it('asks for every call of an untrusted server, runs read-trusted ones, and runs auto-trusted ones in auto mode, also without a terminal (as documented)', () => {
    expect(decide(mcpKind('ask'), 'approve', true)).toBe('ask');
    expect(decide(mcpKind('ask'), 'auto', true)).toBe('ask');
    expect(decide(mcpKind('ask'), 'auto', false)).toBe('deny');
    expect(decide(mcpKind('auto'), 'approve', true)).toBe('ask');
    expect(decide(mcpKind('auto'), 'auto', true)).toBe('allow');
    expect(decide(mcpKind('auto'), 'auto', false)).toBe('allow');
    expect(decide(mcpKind('auto'), 'approve', false)).toBe('deny');
    expect(decide(mcpKind('read'), 'approve', false)).toBe('allow');
  });
});

describe('mcp_servers in config.yaml', () => {
  it('names the server, the setting and the problem of a bad entry, in English and Chinese', () => {
    const one = (v: Record<string, unknown>) => {
      const [p] = mcpServersProblems(v);
      return p ? { name: p.name, field: p.field, text: mcpProblemText(p) } : undefined;
    };
    expect(one({ files: { command: 'node', args: ['x'] } })).toBeUndefined();
    expect(one({ 'bad name': { command: 'x' } })?.text).toContain('letters, digits');
    expect(one({ a: { command: 'x', url: 'https://e.com' } })?.text).toContain('either a command or a url');
    expect(one({ a: { url: 'ftp://e.com' } })).toMatchObject({
      field: 'url',
      text: expect.stringContaining('http://'),
    });
    expect(one({ a: { command: 'x', trust: 'yes' } })).toMatchObject({
      name: 'a',
      field: 'trust',
      text: 'the setting "trust" is "yes", but it must be one of ask, read, auto',
    });
    expect(one({ a: { command: 'x', annotations: 'trust' } })).toBeUndefined();
    expect(one({ a: { command: 'x', annotations: 'yes' } })).toMatchObject({
      field: 'annotations',
      text: 'the setting "annotations" is "yes", but it must be one of trust, ignore',
    });
    expect(normalizeServer({ command: 'x', annotations: 'ignore' }).annotations).toBe('ignore');
    expect(normalizeServer({ command: 'x', annotations: 'trust' }).annotations).toBeUndefined();
    expect(one({ a: { command: 'x', args: 'y.js' } })?.text).toBe(
      'the setting "args" must be a list of text, such as [a, b]',
    );
    expect(one({ a: { command: 'x', tools: [] } })?.text).toContain('"tools" is not one zhi knows');
    expect(
      mcpServersProblems({ ok: { command: 'x' }, b1: { command: 1 }, b2: 'x' }).map((p) => p.name),
    ).toEqual(['b1', 'b2']);
    expect(isServerMap(['x'])).toBe(false);
    setLanguage('zh');
    try {
      expect(one({ a: { command: 'x', trus: 'read' } })?.text).toBe(
        'zhi 不认识设置项 “trus”（可用：command, args, env, url, headers, trust, egress, include, exclude, timeout, call_timeout, annotations, transport）',
      );
    } finally {
      setLanguage('en');
    }
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

describe('a slow start (issue 44 point 17)', () => {
  it('names the timeout: setting, where it goes, and its limit, in both languages', () => {
    const slow = Object.assign(new Error('Request timed out'), { code: -32001 });
    const en = mcpCause(slow, { command: 'slow-server', trust: 'ask' }, 10, 'en');
    expect(en).toMatch(
      /did not finish starting within 10 s.*timeout: .*up to 600.*mcp_servers in config\.yaml/,
    );
    setLanguage('zh');
    try {
      expect(mcpCause(slow, { command: 'slow-server', trust: 'ask' }, 10)).toMatch(
        /10 秒内没有完成启动.*mcp_servers.*timeout:/,
      );
    } finally {
      setLanguage('en');
    }
  });
});
