/**
 * Issue 30 #10: a Chinese screen has no English sentence fragments. Error paths a newcomer meets
 * are run with ZHI_LANGUAGE=zh and their output scanned for runs of three or more English words
 * (code, paths, flags, quoted values and product names excepted: test/helpers/english-runs.ts).
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { englishRuns } from '../helpers/english-runs.js';

const e = useE2E();
const zh = { ZHI_LANGUAGE: 'zh' };

/** A port nothing listens on (a server was there a moment ago): "connection refused". */
let closedPort = 0;
beforeAll(async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closedPort = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
});

describe('the scan itself', () => {
  it('finds the fragments of issue 30 and lets names, code and paths through', () => {
    expect(englishRuns('原因: 它必须是a whole number from 1 to 200。')).toEqual(['whole number from']);
    expect(englishRuns('无法打开编辑器 nano：no text editor was found')).toEqual([
      'no text editor was found',
    ]);
    expect(englishRuns('已跳过 docs/a file.txt，用 `zhi run summarize <file>` 和 --output-dir 试试')).toEqual(
      [],
    );
    expect(englishRuns('智谱开放平台 BigModel Coding Plan（HTTP 400, code 1211）')).toEqual([]);
  });
});

describe('error paths in Chinese have no English fragments', () => {
  type Env = Record<string, string | undefined>;
  const cases: [string, string[], (() => void)?, (Env | (() => Env))?][] = [
    ['unknown option', ['--max-turns', '0', '-c', 'hi']],
    ['a number out of range', ['config', 'set', 'max_turns', '0']],
    ['a setting that cannot be used', ['config', 'set', 'compact_threshold', '2']],
    ['a mistyped file', ['run', 'summarize', 'note.txt'], () => writeFileSync(join(e.cwd, 'notes.txt'), 'x')],
    ['an empty file', ['run', 'summarize', 'empty.txt'], () => writeFileSync(join(e.cwd, 'empty.txt'), '')],
    ['a skill without its input: the argument help', ['run', 'translate']],
    ['a skill without its input: summarize', ['run', 'summarize']],
    ['an unknown skill', ['run', 'sumarize', 'x.txt']],
    [
      'a folder run with skipped files',
      ['run', 'summarize', 'docs'],
      () => {
        mkdirSync(join(e.cwd, 'docs'));
        writeFileSync(join(e.cwd, 'docs', 'a.txt'), '内容');
        writeFileSync(join(e.cwd, 'docs', 'empty.txt'), '');
        copyFileSync(process.execPath, join(e.cwd, 'docs', 'program'));
      },
    ],
    [
      'a platform config.yaml cannot use',
      ['-c', 'hi'],
      () => writeFileSync(join(e.home, 'config.yaml'), 'platform: nope\n'),
    ],
    [
      'a corrupt config.yaml',
      ['config', 'show'],
      () => writeFileSync(join(e.home, 'config.yaml'), 'language: zh\n  bad: [\n'),
    ],
    ['a rejected key', ['-c', 'hi'], undefined, { ZHI_API_KEY: 'bad.key' }],
    ['no key at all', ['-c', 'hi'], undefined, { ZHI_API_KEY: undefined }],
    ['a blocked port', ['-c', 'hi'], undefined, { ZHI_BASE_URL: 'http://127.0.0.1:9/api/paas/v4' }],
    [
      'the server is down',
      ['-c', 'hi'],
      undefined,
      () => ({ ZHI_BASE_URL: `http://127.0.0.1:${closedPort}/api/paas/v4` }),
    ],
    [
      'a missing MCP server',
      ['-c', 'hi'],
      () => {
        writeFileSync(
          join(e.home, 'config.yaml'),
          'mcp_servers:\n  nosrv:\n    command: nosuch-binary-xyz\n',
        );
        // It starts in the background: a search waits for it, so its failure is said.
        e.fake.script({ kind: 'tools', calls: [{ name: 'tool_search', arguments: { query: 'nosrv' } }] });
      },
    ],
    ['batch status of an unknown job', ['batch', 'status', 'nope']],
  ];
  it.each(cases)('%s', async (_name, args, setUp, env = {}) => {
    setUp?.();
    e.fake.script({ kind: 'text', text: '好的。' });
    const more = typeof env === 'function' ? env() : env;
    const r = await e.zhi(args, { env: { ...zh, ...more }, timeoutMs: 30_000 });
    expect(r.stderr.length + r.stdout.length).toBeGreaterThan(0);
    expect(englishRuns(r.stderr)).toEqual([]);
  });
});

describe('config errors name the file the same way: its full path', () => {
  it.each([
    ['platform: nope\n', ['-c', 'hi']],
    ['max_turns: 999\n', ['-c', 'hi']],
    ['colour: blue\n', ['config', 'show']],
    ['language: zh\n  bad: [\n', ['config', 'show']],
  ])('%j', async (yaml, args) => {
    writeFileSync(join(e.home, 'config.yaml'), yaml);
    e.fake.script({ kind: 'text', text: '好的。' });
    const r = await e.zhi(args, { env: zh });
    expect(r.stderr).toContain(join(e.home, 'config.yaml'));
    expect(r.stderr).not.toMatch(/来自 config\.yaml|(^|[^/])config\.yaml (第|中|不是)/m);
  });
});

describe('words from libraries and the API, in Chinese', () => {
  it('batch job statuses', async () => {
    const { setLanguage } = await import('../../src/support/i18n/index.js');
    const { batchStatusText } = await import('../../src/llm/batch.js');
    setLanguage('zh');
    try {
      expect(batchStatusText('in_progress')).toBe('处理中');
      expect(batchStatusText('completed')).toBe('已完成');
    } finally {
      setLanguage('en');
    }
  });

  it('no editor to open', async () => {
    const { setLanguage } = await import('../../src/support/i18n/index.js');
    const { editText } = await import('../../src/cli/external-editor.js');
    setLanguage('zh');
    try {
      expect((await editText('x', { PATH: '/nonexistent' })).kind).toBe('none');
      const missing = await editText('x', { PATH: '/nonexistent', EDITOR: 'nosuch-editor-xyz' });
      expect(missing.kind === 'failed' && missing.reason).toBe('它没有安装（在 PATH 中找不到）');
    } finally {
      setLanguage('en');
    }
  });

  it.runIf(process.platform !== 'win32')("the wizard's key hints", async () => {
    const s = e.pty({ args: ['--setup'], env: { ZHI_API_KEY: undefined, LANG: 'zh_CN.UTF-8' } });
    await s.waitFor('❯ 中文');
    await s.waitFor('移动');
    expect(s.text()).not.toMatch(/navigate|select/);
    s.write('\x03');
    await s.exited();
  });
});
