import { describe, expect, it } from 'vitest';
import { visible } from '../../src/support/sanitize.js';
import { decodeOutput, encodingOf, parseChcp } from '../../src/tools/shell/output-decode.js';

describe('command output decoding', () => {
  // "你好" in GBK (code page 936).
  const niHaoGbk = Buffer.from([0xc4, 0xe3, 0xba, 0xc3]);

  it('decodes each line on its own: UTF-8 when valid, else the console code page', () => {
    const bytes = Buffer.concat([niHaoGbk, Buffer.from('\r\n'), Buffer.from('你好\r\n')]);
    expect(decodeOutput(bytes, 'gb18030', true)).toBe('你好\n你好\n');
  });

  it('turns Windows line ends into line ends, so no line shows a \\r', () => {
    const out = decodeOutput(Buffer.from(' Volume in drive C\r\n\r\n 2 File(s)\r\n'), 'gb18030', true);
    expect(out).toBe(' Volume in drive C\n\n 2 File(s)\n');
    expect(visible(out, { keepNewlines: true })).not.toContain('\\r');
    // A lone \r (a progress bar redrawing) is still made visible.
    expect(decodeOutput(Buffer.from('10%\r20%\n'), 'gb18030', true)).toBe('10%\r20%\n');
  });

  it('keeps a UTF-8 line whose last character the byte cap cut', () => {
    const cut = Buffer.from('abc你').subarray(0, 5);
    expect(decodeOutput(cut, 'gb18030', true)).toBe('abc');
  });

  it('reads the code page from chcp in any language', () => {
    expect(parseChcp('Active code page: 936\r\n')).toBe(936);
    expect(parseChcp('活动代码页: 65001')).toBe(65001);
    expect(encodingOf(950)).toBe('big5');
    expect(encodingOf(0)).toBe('gb18030');
  });
});

describe('visible', () => {
  it('shows a Windows line end as a line end when line breaks are kept', () => {
    expect(visible('a\r\nb', { keepNewlines: true })).toBe('a\nb');
    expect(visible('a\r\nb')).toBe('a\\r↵b');
  });
});

describe('what a Windows user reads about a failed tool', () => {
  it('names a refused absolute path for what it is, not a permission problem', async () => {
    const { setLanguage } = await import('../../src/support/i18n/index.js');
    const { toolFailureText } = await import('../../src/cli/render/tool-failure.js');
    setLanguage('zh');
    try {
      const text = toolFailureText(
        'Error: Absolute paths are not allowed ("C:\\Users\\ann\\Desktop\\a.md"). Give a file name relative to the output folder.',
      );
      expect(text).toBe('只能使用相对于当前文件夹的路径，不能使用绝对路径');
      expect(toolFailureText('Error: Permission denied: "a.md" cannot be accessed.')).toBe(
        '没有权限在那里读写',
      );
    } finally {
      setLanguage('en');
    }
  });
});

describe('symbols the console can draw', () => {
  it('falls back from emoji on the Windows 10 console, not in Windows Terminal or elsewhere', async () => {
    const { attachMark } = await import('../../src/cli/render/symbols.js');
    expect(attachMark({}, 'win32')).toBe('+');
    expect(attachMark({ WT_SESSION: 'x' }, 'win32')).toBe('📎');
    expect(attachMark({}, 'linux')).toBe('📎');
  });
});
