import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { audioCheck, sandboxCheck } from '../../src/cli/commands/doctor-sandbox.js';
import { setLanguage } from '../../src/support/i18n/index.js';

afterEach(() => setLanguage('en'));

const broken = (detail: string, platform: NodeJS.Platform = 'linux') =>
  sandboxCheck({ kind: 'none', reason: 'broken', detail }, undefined, platform).lines.join('\n');

describe('zhi doctor: the sandbox advice matches the cause shown (issue 44 point 18)', () => {
  it.each([
    [
      "bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces. On e.g. debian this can be enabled with 'sysctl kernel.unprivileged_userns_clone=1'.",
      /kernel\.unprivileged_userns_clone=1/,
    ],
    ['bwrap: setting up uid map: Permission denied', /AppArmor.*apparmor_restrict_unprivileged_userns=0/],
    ['bwrap: Creating new namespace failed: Operation not permitted', /container.*seccomp=unconfined/],
    ["bwrap: Can't mount proc on /newroot/proc: Operation not permitted", /container/],
    ['bwrap: execvp true: No such file or directory', /bubblewrap’s own.*bwrap --ro-bind/],
  ])('%s', (detail, advice) => {
    const text = broken(detail);
    expect(text).toMatch(advice);
    if (!/unprivileged_userns_clone/.test(detail)) expect(text).not.toContain('unprivileged_userns_clone');
  });

  it('a Mac whose sandbox-exec fails is not told about Linux sysctls', () => {
    const text = broken('sandbox-exec: sandbox_apply: Operation not permitted', 'darwin');
    expect(text).toContain('sandbox-exec');
    expect(text).not.toMatch(/sysctl|namespace|container/);
  });

  it('in Chinese too', () => {
    setLanguage('zh');
    expect(broken('bwrap: setting up uid map: Permission denied')).toMatch(/AppArmor.*询问管理员/);
  });
});

describe('zhi doctor: recordings (issue 44 point 21)', () => {
  it('says the audio part length the code cuts at, as the README does', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const said = /cut into (\d+)-second requests/.exec(readme)?.[1];
    expect(audioCheck('/usr/bin/ffmpeg').lines.join(' ')).toContain(`${said}-second parts`);
    expect(audioCheck(undefined).lines.join(' ')).toContain(`${said}-second parts`);
  });
});
