import { describe, expect, it } from 'vitest';
import { formatError, formatWarning } from '../../src/cli/render/error.js';
import { makeStyle } from '../../src/cli/render/style.js';
import { wrapText } from '../../src/cli/render/width.js';
import { ZhiError } from '../../src/support/errors.js';
import { joinShown, type Shown, t } from '../../src/support/i18n/index.js';
import { textWidth as displayWidth } from '../../src/support/width.js';

const plain = makeStyle(false);
const color = makeStyle(true);
const strip = (s: string) => s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
const words = (s: string) =>
  strip(s)
    .replace(/\[WARN\]|\[ERROR\]|⚠/g, ' ')
    .split(/\s+/)
    .filter(Boolean);

describe('everything printed wraps to the window', () => {
  const english =
    'The skill file could not be deleted because another program holds it open; close that program and delete it again.';
  const chinese =
    '技能文件无法删除，因为另一个程序正在使用它；请关闭那个程序后再删除一次，或者重新启动电脑后再试。';

  for (const style of [plain, color]) {
    it(`warnings wrap at words and CJK boundaries with a hanging indent (${style.enabled ? 'colour' : 'plain'})`, () => {
      const out = formatWarning(`${english} ${chinese}`, style, 40).trimEnd().split('\n');
      for (const l of out) expect(displayWidth(l)).toBeLessThanOrEqual(39);
      // No word was cut: the words of the wrapped text are the words of the message.
      expect(words(out.join('\n')).join(' ')).toContain('deleted because another program holds it open;');
      expect(strip(out.join('')).replace(/\s+/g, '')).toContain(chinese.replace(/\s+/g, ''));
      expect(strip(out[1]!)).toMatch(/^ {2,7}\S/);
    });
  }

  it('errors wrap each part under its own label', () => {
    const err = new ZhiError({
      kind: 'usage',
      what: { key: 'sessions.err.needId' },
      why: { key: 'sessions.err.needIdWhy' },
    });
    const out = formatError(err, plain, { width: 30 }).trimEnd().split('\n');
    for (const l of out) expect(displayWidth(l)).toBeLessThanOrEqual(29);
    expect(out[0]).toMatch(/^\[ERROR\] /);
  });

  it('labels only the first line of a reason that has several (a skill usage block)', () => {
    const err = new ZhiError({
      kind: 'usage',
      what: { key: 'cli.err.unknownFlag', params: { flag: '--x' } },
      why: joinShown(
        [
          t('skills.usageLine', { usage: 'zhi run x [--len <short|long>]' }),
          '  file   The document',
          '  --len  How long',
        ] as Shown[],
        '\n',
      ),
    });
    const out = formatError(err, plain, { width: 100 }).split('\n');
    expect(out.filter((l) => l.includes('Reason:'))).toEqual([
      '  Reason: Usage: zhi run x [--len <short|long>]',
    ]);
    expect(out).toContain('      file   The document');
    expect(out).toContain('      --len  How long');
  });

  it('leaves text alone without a window, and cuts only a word longer than a line', () => {
    expect(wrapText(english, undefined)).toEqual([english]);
    const lines = wrapText('see https://open.bigmodel.cn/usercenter/apikeys now', 20, '', '');
    for (const l of lines) expect(displayWidth(l)).toBeLessThanOrEqual(20);
    expect(lines[0]).toBe('see');
    expect(lines.join('').replace(/ /g, '')).toBe('seehttps://open.bigmodel.cn/usercenter/apikeysnow');
  });
});
