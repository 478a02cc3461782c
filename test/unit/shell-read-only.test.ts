import { describe, expect, it } from 'vitest';
import {
  BLOCKED,
  blockedWriteDir,
  localeOf,
  sandboxRefusedWrite,
  wordsIn,
} from '../../src/tools/shell/read-only.js';

describe('a write the sandbox refused, recognised by its cause in any language', () => {
  it.each([
    ["touch: cannot touch '/usr/.zhi-read-only-probe': Read-only file system", 'Read-only file system'],
    ["touch: 无法 touch '/usr/.zhi-read-only-probe': 只读文件系统", '只读文件系统'],
    [
      "touch: '/usr/.zhi-read-only-probe' kann nicht berührt werden: Das Dateisystem ist nur lesbar",
      'Das Dateisystem ist nur lesbar',
    ],
    ['nothing useful', undefined],
  ])('learns the words from the probe: %s', (output, words) => {
    expect(wordsIn(output)).toBe(words);
  });

  it('English needs no probe; another locale is probed once and then remembered', async () => {
    let probes = 0;
    const probe = async () => {
      probes += 1;
      return "touch: 无法 touch '/usr/.zhi-read-only-probe': 只读文件系统";
    };
    expect(
      await sandboxRefusedWrite(
        "rm: cannot remove 'a': Read-only file system",
        { LANG: 'en_US.UTF-8' },
        probe,
      ),
    ).toBe(true);
    expect(
      await sandboxRefusedWrite("rm: cannot remove 'a': Permission denied", { LANG: 'C.UTF-8' }, probe),
    ).toBe(false);
    expect(probes).toBe(0);
    const zh = { LANG: 'zh_CN.UTF-8', LANGUAGE: 'zh_CN:zh' };
    expect(await sandboxRefusedWrite("rm: 无法删除 'notes.txt': 只读文件系统", zh, probe)).toBe(true);
    expect(await sandboxRefusedWrite("rm: 无法删除 'x': 没有那个文件或目录", zh, probe)).toBe(false);
    expect(probes).toBe(1);
  });

  it('the locale is the one the C library picks its messages by', () => {
    expect(localeOf({ LANG: 'de_DE.UTF-8', LC_MESSAGES: 'zh_CN.UTF-8' })).toBe('zh_CN.UTF-8');
    expect(localeOf({ LANG: 'de_DE.UTF-8', LC_ALL: 'fr_FR.UTF-8', LANGUAGE: 'ja' })).toBe('ja');
    expect(localeOf({})).toBe('C');
  });

  it("renderers read zhi's own line, never the program's words", () => {
    const note =
      'It ran in a sandbox: it could create new files only under zhi-output/ (and a private /tmp), with no network';
    expect(blockedWriteDir(`Exit code: 1\n\nstderr:\nrm: 只读文件系统\n\n${BLOCKED}\n\n${note}`)).toBe(
      'zhi-output/',
    );
    expect(blockedWriteDir(`Exit code: 1\n\nstderr:\nrm: Read-only file system\n\n${note}`)).toBeUndefined();
  });
});
