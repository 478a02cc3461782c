import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type WindowsProbe, windowsChecks } from '../../src/cli/commands/doctor-windows.js';
import type { AppContext } from '../../src/cli/context.js';
import { setLanguage } from '../../src/support/i18n/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  setLanguage('en');
});

function context(apiKey: string | undefined): AppContext {
  const dir = mkdtempSync(join(tmpdir(), 'zhi-doctor-'));
  dirs.push(dir);
  const configFile = join(dir, 'config.yaml');
  writeFileSync(configFile, 'language: zh\n');
  return {
    config: { apiKey, baseUrl: 'https://open.bigmodel.cn/api/paas/v4' },
    paths: { configFile },
    env: {},
  } as unknown as AppContext;
}

const probe = (o: Partial<WindowsProbe> = {}): WindowsProbe => ({
  reach: async () => true,
  acl: async () => true,
  codePage: async () => 936,
  shell: () => 'C:\\Windows\\System32\\cmd.exe',
  ...o,
});

describe('zhi doctor on Windows', () => {
  it('checks key, network, config, its access list, the shell and the code page; all well is all ok', async () => {
    const checks = await windowsChecks(context('k.s'), probe());
    expect(checks.every((c) => c.ok)).toBe(true);
    const text = checks.flatMap((c) => c.lines).join('\n');
    expect(text).toMatch(/API key: set/);
    expect(text).toMatch(/open\.bigmodel\.cn answers/);
    expect(text).toMatch(/icacls applied/);
    expect(text).toMatch(/cmd\.exe/);
    expect(text).toMatch(/936.*gb18030/);
    expect(text).toMatch(/not available on Windows/);
  });

  it('reports a failing icacls, a missing key and no network, with what to try', async () => {
    setLanguage('zh');
    const checks = await windowsChecks(
      context(undefined),
      probe({ acl: async () => false, reach: async () => false }),
    );
    const failed = checks.filter((c) => !c.ok).map((c) => c.lines.join(' '));
    expect(failed).toHaveLength(3);
    expect(failed.join('\n')).toMatch(/icacls "[^"]+config\.yaml" \/inheritance:r/);
    expect(failed.join('\n')).toMatch(/setx ZHI_API_KEY/);
  });
});
