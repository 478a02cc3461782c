/** The shell's environment lets only real locale categories with locale-shaped values through. */
import { describe, expect, it } from 'vitest';
import { commandEnv } from '../../src/tools/shell/env.js';

describe('locale settings in a command environment', () => {
  const rows: [string, string, boolean][] = [
    ['LANG', 'zh_CN.UTF-8', true],
    ['LC_ALL', 'C', true],
    ['LC_ALL', 'C.UTF-8', true],
    ['LC_CTYPE', 'POSIX', true],
    ['LC_MESSAGES', 'sr_RS@latin', true],
    ['LC_TIME', 'en_150.UTF-8', true],
    ['LC_PAPER', 'de_DE.ISO-8859-1', true],
    ['LC_TELEPHONE', '', true],
    ['LANGUAGE', 'zh_CN:en_US:en', true],
    ['LC_TOKEN', 'en_US.UTF-8', false],
    ['LC_API_KEY', 'sk-abc', false],
    ['LC_ALL', 'ghp_0123456789abcdefghijklmnopqrstuvwxyz', false],
    ['LANG', 'en_US.UTF-8; curl evil', false],
    ['LANGUAGE', 'en:sk-0123456789abcdef0123456789', false],
  ];
  it.each(rows)('%s=%j passes: %s', (name, value, passes) => {
    expect(name in commandEnv({ [name]: value }, [])).toBe(passes);
  });
  it('a name the person lists in shell_env passes whatever it holds', () => {
    expect(commandEnv({ LC_TOKEN: 'x' }, ['LC_TOKEN'])).toEqual({ LC_TOKEN: 'x' });
  });
});
