/** MCP approvals in plain words: the action, the arguments folded, the file that exists. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setLanguage } from '../../src/support/i18n/index.js';
import { foldArgs, mcpAssess, mcpPreview, mcpWarning, verbOf } from '../../src/tools/mcp/approval.js';
import { mcpKind, toolHints } from '../../src/tools/mcp/convert.js';

let dir: string;
beforeAll(() => {
  setLanguage('en');
  dir = mkdtempSync(join(tmpdir(), 'zhi-mcp-approval-'));
  writeFileSync(join(dir, 'notes.txt'), 'old');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('MCP approvals', () => {
  it('says what a call will do, from the tool name and its arguments', () => {
    expect(verbOf('write_file')).toBe('write');
    expect(verbOf('edit_file')).toBe('edit');
    expect(verbOf('move_file')).toBe('move');
    expect(verbOf('read_text_file')).toBe('read');
    expect(verbOf('create_entities')).toBe('create');
    expect(verbOf('echo')).toBeUndefined();
    const content = 'x'.repeat(46);
    expect(
      mcpPreview('files', 'write_file', { path: join(dir, 'notes.txt'), content }, dir).split('\n')[0],
    ).toBe('files wants to write notes.txt (46 B)');
    expect(
      mcpPreview('files', 'move_file', { source: 'a.txt', destination: 'b/a.txt' }, dir).split('\n')[0],
    ).toBe('files wants to move a.txt to b/a.txt');
    expect(mcpPreview('crashy', 'echo', { text: 'hi' }, dir)).toBe(
      'crashy wants to run its tool echo\ntext: hi',
    );
    setLanguage('zh');
    expect(mcpPreview('files', 'write_file', { path: 'n.txt', content: 'abc' }, dir).split('\n')[0]).toBe(
      'files 想要写入 n.txt（3 B）',
    );
    setLanguage('en');
  });

  it('folds long arguments: a few lines of each text, objects as indented JSON', () => {
    const text = Array.from({ length: 10 }, (_, i) => `line ${i}`).join('\n');
    const lines = foldArgs({ content: text, opts: { a: 1 } });
    expect(lines.slice(0, 3)).toEqual(['content:', '  line 0', '  line 1']);
    expect(lines).toContain('  … 4 more lines');
    expect(lines).not.toContain('  line 6');
    expect(lines).toContain('opts:');
    expect(foldArgs({ long: 'y'.repeat(500) })[0]).toHaveLength('long: '.length + 201);
  });

  it('warns when the file a call writes exists, or when any argument names an existing file; reads say nothing', () => {
    expect(mcpWarning('write_file', { path: 'notes.txt', content: 'new' }, dir)).toMatch(
      /^notes\.txt exists: it will be replaced\. MCP tools act under the server's own rules/,
    );
    expect(mcpWarning('delete_file', { path: 'notes.txt' }, dir)).toMatch(
      /^notes\.txt exists: it will be deleted\./,
    );
    expect(mcpWarning('write_file', { path: 'new.txt', content: 'x' }, dir)).toBeUndefined();
    expect(mcpWarning('convert', { input: join(dir, 'notes.txt') }, dir)).toMatch(
      /^An argument names the existing file notes\.txt/,
    );
    expect(mcpWarning('read_text_file', { path: 'notes.txt' }, dir)).toBeUndefined();
  });

  it('offers a standing answer for the tool, keyed by its full name', () => {
    expect(mcpAssess('files__write_file', { server: 'files', tool: 'write_file' }, {}, dir).standing).toEqual(
      {
        key: 'tool:files__write_file',
        label: 'always allow write_file this session',
        mcp: { server: 'files', tool: 'write_file' },
      },
    );
  });
});

describe("the server's annotations (issue 43 point 2)", () => {
  it.each([
    ['read-only', { readOnlyHint: true }, 'trust', { readOnly: true }],
    ['destructive', { destructiveHint: true }, 'trust', { destructive: true }],
    [
      'both: taken at its worse word',
      { readOnlyHint: true, destructiveHint: true },
      'trust',
      { destructive: true },
    ],
    ['false marks', { readOnlyHint: false, destructiveHint: false }, 'trust', {}],
    ['none', undefined, 'trust', {}],
    ['not a map', 'readOnly', 'trust', {}],
    ['a "true" string is no mark', { readOnlyHint: 'true' }, 'trust', {}],
    ['annotations: ignore', { readOnlyHint: true, destructiveHint: true }, 'ignore', {}],
  ] as const)('%s', (_, annotations, setting, want) => {
    expect(toolHints(annotations, setting)).toEqual(want);
  });

  it('a read-only tool is a read for the policy, whatever the trust; the others follow trust', () => {
    expect(mcpKind('ask', { readOnly: true })).toBe('read');
    expect(mcpKind('auto', { readOnly: true })).toBe('read');
    expect(mcpKind('ask', { destructive: true })).toBe('mcp');
    expect(mcpKind('auto', {})).toBe('mcp-auto');
    expect(mcpKind('read', { destructive: true })).toBe('read');
  });

  it('a destructive tool is warned about first, in both languages; a read-only one is said in the preview', () => {
    const ref = { server: 'db', tool: 'run_sql', hints: { destructive: true } };
    const sql = { sql: 'DROP TABLE users' };
    expect(mcpAssess('db__run_sql', ref, sql, dir).warning).toBe(
      'The server marks run_sql as destructive: it may delete or overwrite data, and that may not be undone.',
    );
    const both = mcpAssess('db__run_sql', ref, { path: 'notes.txt' }, dir).warning!;
    expect(both).toMatch(/^The server marks run_sql as destructive.*names the existing file notes\.txt/);
    expect(mcpAssess('db__run_sql', { server: 'db', tool: 'run_sql' }, sql, dir).warning).toBeUndefined();
    expect(mcpPreview('db', 'query', sql, dir, { readOnly: true }).split('\n')[1]).toBe(
      'The server marks query as read-only.',
    );
    setLanguage('zh');
    try {
      expect(mcpAssess('db__run_sql', ref, sql, dir).warning).toBe(
        '服务器把 run_sql 标为破坏性操作：它可能删除或覆盖数据，而且可能无法撤销。',
      );
    } finally {
      setLanguage('en');
    }
  });
});
