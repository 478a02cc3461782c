import { describe, expect, it } from 'vitest';
import { ruleCover } from '../../src/agent/allow-rules.js';
import { decide, NO_RULE } from '../../src/agent/permissions.js';
import { type AllowRule, readAllowRules, shellWords } from '../../src/support/allow-config.js';
import { shellStandingKey } from '../../src/tools/standing.js';
import type { Assessment, Outbound, ToolKind } from '../../src/tools/types.js';

const rules = (value: unknown) => readAllowRules(value).rules;

describe('readAllowRules', () => {
  it.each([
    [[{ tool: 'file_write' }], [{ kind: 'tool', tool: 'file_write' }]],
    [
      [{ tool: 'web_fetch', host: 'Docs.Example.com.' }],
      [{ kind: 'tool', tool: 'web_fetch', host: 'docs.example.com' }],
    ],
    [[{ shell: ' git status ' }], [{ kind: 'shell', command: 'git status', words: ['git', 'status'] }]],
    [
      [{ shell: 'cat "my notes.md"' }],
      [{ kind: 'shell', command: 'cat "my notes.md"', words: ['cat', 'my notes.md'] }],
    ],
    [[{ mcp: 'files' }], [{ kind: 'mcp', server: 'files' }]],
    [[{ mcp: 'db', tool: 'query' }], [{ kind: 'mcp', server: 'db', tool: 'query' }]],
  ])('%j is read as a rule', (value, expected) => {
    expect(readAllowRules(value)).toEqual({ rules: expected, problems: [] });
  });

  it.each([
    [{ tool: 'x' }, { code: 'not_list' }],
    [['shell: ls'], { code: 'not_map', index: 1 }],
    [[{ host: 'a.example' }], { code: 'no_kind', index: 1 }],
    [[{ shell: 'ls', mcp: 'files' }], { code: 'two_kinds', index: 1 }],
    [[{ shell: 'ls', tool: 'x' }], { code: 'unknown_field', field: 'tool', index: 1 }],
    [[{ mcp: 'files', host: 'a.example' }], { code: 'unknown_field', field: 'host', index: 1 }],
    [[{ shell: 'ls; rm -rf ~' }], { code: 'bad_value', field: 'shell', index: 1 }],
    [[{ shell: 'echo $(id)' }], { code: 'bad_value', field: 'shell', index: 1 }],
    [[{ shell: 'cat "open' }], { code: 'bad_value', field: 'shell', index: 1 }],
    [[{ tool: 'web_fetch', host: 'http://a.example/' }], { code: 'bad_value', field: 'host', index: 1 }],
    [[{ mcp: 'a b' }], { code: 'bad_value', field: 'mcp', index: 1 }],
  ])('%j is left out: %j', (value, problem) => {
    expect(readAllowRules(value)).toEqual({ rules: [], problems: [problem] });
  });

  it('splits words as a shell would, quotes grouping', () => {
    expect(shellWords("git  log 'a b'")).toEqual(['git', 'log', 'a b']);
    expect(shellWords('a | b')).toBeUndefined();
  });
});

const shellCall = (words: string[], operands: string[] = [], extra: Assessment = {}) => ({
  name: 'shell',
  kind: 'shell' as ToolKind,
  assessment: { standing: { key: shellStandingKey(words, false, operands), label: '' }, ...extra },
  outbound: [],
});
const exactCall = (words: string[]) => ({
  ...shellCall([]),
  assessment: { standing: { key: shellStandingKey(words, true), label: '' } },
});
const mcpCall = (server: string, tool: string, kind: ToolKind = 'mcp') => ({
  name: `${server}__${tool}`,
  kind,
  assessment: { standing: { key: `tool:${server}__${tool}`, label: '', mcp: { server, tool } } },
  outbound: [{ kind: 'args', text: '{}', to: `MCP ${server}` } as Outbound],
});
const toolCall = (name: string, kind: ToolKind, urls: string[] = []) => ({
  name,
  kind,
  assessment: {},
  outbound: urls.map((url): Outbound => ({ kind: 'url', url })),
});

describe('ruleCover', () => {
  const cases: [string, AllowRule[], Parameters<typeof ruleCover>[1], { call: boolean; sending: boolean }][] =
    [
      [
        'a shell prefix covers its command',
        rules([{ shell: 'git status' }]),
        shellCall(['git', 'status']),
        { call: true, sending: false },
      ],
      [
        '… with its files',
        rules([{ shell: 'git log' }]),
        shellCall(['git', 'log'], ['src']),
        { call: true, sending: false },
      ],
      [
        '… options in the rule are ignored',
        rules([{ shell: 'ls -la' }]),
        shellCall(['ls'], ['docs']),
        { call: true, sending: false },
      ],
      [
        'a longer rule names the files',
        rules([{ shell: 'cat README.md' }]),
        shellCall(['cat'], ['/etc/passwd']),
        NO_RULE,
      ],
      [
        'another command is not covered',
        rules([{ shell: 'git status' }]),
        shellCall(['git', 'push']),
        NO_RULE,
      ],
      [
        'a warned command never is',
        rules([{ shell: 'git' }]),
        shellCall(['git', 'clean'], [], { warning: 'deletes' }),
        NO_RULE,
      ],
      [
        'a line with no standing offer never is',
        rules([{ shell: 'echo' }]),
        { ...shellCall([]), assessment: {} },
        NO_RULE,
      ],
      [
        'an exact command must be the rule',
        rules([{ shell: './build.sh' }]),
        exactCall(['./build.sh', 'x']),
        NO_RULE,
      ],
      [
        '… and is when it is',
        rules([{ shell: './build.sh x' }]),
        exactCall(['./build.sh', 'x']),
        { call: true, sending: false },
      ],
      ['tool: shell covers no command', rules([{ tool: 'shell' }]), shellCall(['ls']), NO_RULE],
      [
        'a server covers its tools',
        rules([{ mcp: 'files' }]),
        mcpCall('files', 'write_file'),
        { call: true, sending: false },
      ],
      [
        '… trusted auto too',
        rules([{ mcp: 'files' }]),
        mcpCall('files', 'x', 'mcp-auto'),
        { call: true, sending: false },
      ],
      ['… not another server', rules([{ mcp: 'files' }]), mcpCall('db', 'query'), NO_RULE],
      [
        'a server tool covers that tool only',
        rules([{ mcp: 'db', tool: 'query' }]),
        mcpCall('db', 'drop'),
        NO_RULE,
      ],
      [
        'tool: names an MCP tool in vain',
        rules([{ tool: 'files__write_file' }]),
        mcpCall('files', 'write_file'),
        NO_RULE,
      ],
      [
        'a tool rule covers the tool',
        rules([{ tool: 'file_write' }]),
        toolCall('file_write', 'risky'),
        { call: true, sending: false },
      ],
      [
        'a host rule covers sending there',
        rules([{ tool: 'web_fetch', host: 'docs.example.com' }]),
        toolCall('web_fetch', 'read', ['https://docs.example.com/search?q=x']),
        { call: true, sending: true },
      ],
      [
        '… not to another host',
        rules([{ tool: 'web_fetch', host: 'docs.example.com' }]),
        toolCall('web_fetch', 'read', ['https://docs.example.com.evil.example/?q=x']),
        NO_RULE,
      ],
      [
        '… nor one request of two elsewhere',
        rules([{ tool: 'web_fetch', host: 'a.example' }]),
        toolCall('web_fetch', 'read', ['https://a.example/', 'https://b.example/']),
        NO_RULE,
      ],
    ];
  it.each(cases)('%s', (_what, given, call, expected) => {
    expect(ruleCover(given, call)).toEqual(expected);
  });
});

describe('decide with a rule', () => {
  const call = { call: true, sending: false };
  it.each([
    ['shell covered, no terminal', decide('shell', 'approve', false, false, call), 'allow'],
    ['mcp covered, approve mode', decide('mcp', 'approve', true, false, call), 'allow'],
    ['sending not covered still asks', decide('mcp', 'auto', true, true, call), 'ask'],
    ['… and is refused with no terminal', decide('read', 'auto', false, true, call), 'deny'],
    [
      'a host rule covers sending',
      decide('read', 'approve', false, true, { call: true, sending: true }),
      'allow',
    ],
    ['no rule: shell asks', decide('shell', 'auto', true, false, NO_RULE), 'ask'],
  ])('%s → %s', (_what, got, expected) => {
    expect(got).toBe(expected);
  });
});
