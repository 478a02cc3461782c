import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  aclCheck,
  codePageCheck,
  elevationCheck,
  jobCheck,
  shellCheck,
  type WindowsProbe,
} from '../../src/cli/commands/doctor-windows.js';
import type { AppContext } from '../../src/cli/context.js';
import { setLanguage } from '../../src/support/i18n/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  setLanguage('en');
});

function context(): AppContext {
  const dir = mkdtempSync(join(tmpdir(), 'zhi-doctor-'));
  dirs.push(dir);
  const configFile = join(dir, 'config.yaml');
  writeFileSync(configFile, 'language: zh\n');
  return { paths: { configFile }, env: {}, config: { shellSandbox: 'auto' } } as unknown as AppContext;
}

const probe = (o: Partial<WindowsProbe> = {}): WindowsProbe => ({
  platform: 'win32',
  acl: async () => true,
  codePage: async () => 936,
  shell: () => 'C:\\Windows\\System32\\cmd.exe',
  elevated: async () => false,
  helper: () => 'C:\\zhi\\zhi-sandbox.exe',
  ...o,
});

describe('zhi doctor on Windows', () => {
  it('checks the access list, the shell and the code page', async () => {
    const ctx = context();
    expect((await aclCheck(ctx, probe()))?.lines[0]).toMatch(/icacls applied/);
    expect(shellCheck(ctx, probe())?.lines[0]).toMatch(/cmd\.exe/);
    expect((await codePageCheck(ctx, probe()))?.lines[0]).toMatch(/936.*gb18030/);
  });

  it('reports a failing icacls with what to run, and says nothing on other systems', async () => {
    setLanguage('zh');
    const ctx = context();
    const acl = await aclCheck(ctx, probe({ acl: async () => false }));
    expect(acl?.ok).toBe(false);
    expect(acl?.lines.join('\n')).toMatch(/icacls "[^"]+config\.yaml" \/inheritance:r/);
    expect(await aclCheck(ctx, probe({ platform: 'linux' }))).toBeUndefined();
    expect(shellCheck(ctx, probe({ shell: () => undefined }))?.ok).toBe(false);
  });
});

describe('an administrator console in zhi doctor', () => {
  it('is said as a note in both languages, and an ordinary console plainly', async () => {
    const ctx = context();
    const admin = await elevationCheck(ctx, probe({ elevated: async () => true }));
    expect(admin).toMatchObject({ ok: true, note: true });
    expect(admin?.lines[0]).toMatch(/administrator/);
    expect((await elevationCheck(ctx, probe()))?.lines[0]).toMatch(/without administrator/);
    setLanguage('zh');
    expect((await elevationCheck(ctx, probe({ elevated: async () => true })))?.lines[0]).toMatch(
      /管理员身份运行/,
    );
    expect(await elevationCheck(ctx, probe({ platform: 'linux' }))).toBeUndefined();
  });

  it('says how commands are stopped: the Job Object helper, or taskkill when it is missing', () => {
    const ctx = context();
    expect(jobCheck(ctx, probe())).toMatchObject({ ok: true, lines: [expect.stringMatching(/Job Object/)] });
    const restricted = { ...ctx, config: { shellSandbox: 'restricted' } } as unknown as AppContext;
    expect(jobCheck(restricted, probe())?.lines[1]).toMatch(/restricted token.*zhi-output/);
    setLanguage('zh');
    const missing = jobCheck(ctx, probe({ helper: () => undefined }));
    expect(missing).toMatchObject({ ok: false, optional: true });
    expect(missing?.lines.join('\n')).toMatch(/找不到 zhi-sandbox\.exe.*\n重新安装/);
    expect(jobCheck(ctx, probe({ platform: 'linux' }))).toBeUndefined();
  });
});
