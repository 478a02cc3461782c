import { describe, expect, it } from 'vitest';
import { candidates, detectPaths, words } from '../../src/cli/repl/attach/paths.js';

const cwd = '/work/docs';
const home = '/home/li';

function detect(text: string, files: string[], wsl = false) {
  const set = new Set(files);
  const asked: string[] = [];
  const found = detectPaths(text, {
    cwd,
    home,
    wsl,
    isFile: (p) => {
      asked.push(p);
      return set.has(p);
    },
  });
  return { found, asked };
}

describe('words', () => {
  it('keeps quoted strings whole and joins backslash-escaped spaces', () => {
    const w = words(`看看 '/tmp/My File.pdf' 和 /Users/li/My\\ Report\\ (1).docx 吧`);
    expect(w.map((x) => x.value)).toEqual([
      '看看',
      '/tmp/My File.pdf',
      '和',
      '/Users/li/My Report (1).docx',
      '吧',
    ]);
    expect(w[1]!.quoted).toBe(true);
  });

  it('does not unescape backslashes in Windows paths', () => {
    const w = words('C:\\Users\\li\\Desktop\\a.pdf what');
    expect(w[0]!.value).toBe('C:\\Users\\li\\Desktop\\a.pdf');
  });

  it('records where each word is in the text', () => {
    const text = 'read "a b.txt" now';
    const [, q] = words(text);
    expect(text.slice(q!.start, q!.end)).toBe('"a b.txt"');
  });
});

describe('detectPaths', () => {
  it('finds an absolute path dragged into the message', () => {
    const { found } = detect('/home/li/Desktop/report.pdf what is this', ['/home/li/Desktop/report.pdf']);
    expect(found).toEqual([
      { raw: '/home/li/Desktop/report.pdf', path: '/home/li/Desktop/report.pdf', start: 0, end: 27 },
    ]);
  });

  it('finds single- and double-quoted paths with spaces (GNOME Terminal, Windows Terminal)', () => {
    const { found } = detect(`compare '/home/li/My Docs/a.docx' and "/home/li/b c.xlsx"`, [
      '/home/li/My Docs/a.docx',
      '/home/li/b c.xlsx',
    ]);
    expect(found.map((f) => f.path)).toEqual(['/home/li/My Docs/a.docx', '/home/li/b c.xlsx']);
  });

  it('finds backslash-escaped paths (macOS Terminal, iTerm2)', () => {
    const { found } = detect('总结一下 /Users/li/年度\\ 报告\\ (终稿).docx', [
      '/Users/li/年度 报告 (终稿).docx',
    ]);
    expect(found.map((f) => f.path)).toEqual(['/Users/li/年度 报告 (终稿).docx']);
    expect(found[0]!.raw).toBe('/Users/li/年度\\ 报告\\ (终稿).docx');
  });

  it('resolves relative paths against the current folder and ~ against home', () => {
    const { found } = detect('merge ./a.md, sub/b.csv and ~/notes/c.txt', [
      '/work/docs/a.md',
      '/work/docs/sub/b.csv',
      '/home/li/notes/c.txt',
    ]);
    expect(found.map((f) => f.path)).toEqual([
      '/work/docs/a.md',
      '/work/docs/sub/b.csv',
      '/home/li/notes/c.txt',
    ]);
  });

  it('finds a bare file name in the current folder', () => {
    const { found } = detect('translate report.md into English', ['/work/docs/report.md']);
    expect(found.map((f) => f.path)).toEqual(['/work/docs/report.md']);
  });

  it('tolerates punctuation and Chinese text glued to a path', () => {
    const { found } = detect('请总结/home/li/a.pdf，谢谢。另外看看（b.txt）', [
      '/home/li/a.pdf',
      '/work/docs/b.txt',
    ]);
    expect(found.map((f) => f.path)).toEqual(['/home/li/a.pdf', '/work/docs/b.txt']);
  });

  it('finds a relative file name glued after Chinese text', () => {
    const { found } = detect('帮我总结report.docx的要点', ['/work/docs/report.docx']);
    expect(found.map((f) => f.path)).toEqual(['/work/docs/report.docx']);
  });

  it('understands file:// URIs with escapes', () => {
    const { found } = detect('file:///home/li/My%20File.pdf', ['/home/li/My File.pdf']);
    expect(found.map((f) => f.path)).toEqual(['/home/li/My File.pdf']);
  });

  it('keeps Windows paths as they are, and tries them under /mnt/c on WSL', () => {
    const win = detect('"C:\\Users\\li\\My Files\\a.docx" summary', ['C:\\Users\\li\\My Files\\a.docx']);
    expect(win.found.map((f) => f.path)).toEqual(['C:\\Users\\li\\My Files\\a.docx']);
    const wsl = detect('C:\\Users\\li\\a.pdf', ['/mnt/c/Users/li/a.pdf'], true);
    expect(wsl.found.map((f) => f.path)).toEqual(['/mnt/c/Users/li/a.pdf']);
  });

  it('ignores words that are not existing files, URLs, and plain words', () => {
    const { found, asked } = detect('see https://example.com/a.pdf and e.g. Node.js or missing.pdf', []);
    expect(found).toEqual([]);
    expect(asked.some((p) => p.includes('example.com'))).toBe(false);
    expect(asked).not.toContain('/work/docs/see');
  });

  it('reports each file once', () => {
    const { found } = detect('a.md ./a.md /work/docs/a.md', ['/work/docs/a.md']);
    expect(found).toHaveLength(1);
  });

  it('survives an isFile that throws (permission denied)', () => {
    const found = detectPaths('/root/secret.txt', {
      cwd,
      home,
      isFile: () => {
        throw new Error('EACCES');
      },
    });
    expect(found).toEqual([]);
  });
});

describe('candidates', () => {
  it('tries the literal text first, then without glued punctuation', () => {
    expect(
      candidates('a.pdf，')
        .map((c) => c.text)
        .slice(0, 2),
    ).toEqual(['a.pdf，', 'a.pdf']);
  });

  it('rejects malformed file URIs', () => {
    expect(candidates('file://%E0%A4%A')).toEqual([]);
  });
});

describe('detectPaths with Chinese file names', () => {
  it('finds a Chinese file name glued to the sentence around it', () => {
    const found = detectPaths('把报告.md的要点写成总结', {
      cwd,
      home,
      isFile: (p) => p === '/work/docs/报告.md',
    });
    expect(found).toEqual([{ raw: '报告.md', path: '/work/docs/报告.md', start: 1, end: 6 }]);
  });
});
