import { describe, expect, it } from 'vitest';
import {
  fixPrivateMode,
  icaclsArgs,
  type PrivacyDeps,
  restrictAcl,
} from '../../src/support/private-files.js';

function fakeDeps(platform: NodeJS.Platform, modes: Record<string, number>, env: NodeJS.ProcessEnv = {}) {
  const calls: { chmod: [string, number][]; run: [string, string[]][] } = { chmod: [], run: [] };
  const deps: PrivacyDeps = {
    platform,
    env,
    stat: async (p) => {
      if (!(p in modes)) throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
      return { mode: 0o100000 | modes[p]! };
    },
    chmod: async (p, m) => {
      calls.chmod.push([p, m]);
    },
    run: async (file, args) => {
      calls.run.push([file, args]);
    },
  };
  return { deps, calls };
}

describe('private config on Linux and macOS', () => {
  it('a group- or world-readable config becomes 0600 in a 0700 folder, and the old mode is reported', async () => {
    const { deps, calls } = fakeDeps('linux', { '/h/zhi/config.yaml': 0o644, '/h/zhi': 0o755 });
    expect(await fixPrivateMode('/h/zhi/config.yaml', deps)).toEqual({ fileMode: 0o644, folderMode: 0o755 });
    expect(calls.chmod).toEqual([
      ['/h/zhi/config.yaml', 0o600],
      ['/h/zhi', 0o700],
    ]);
  });

  it('leaves a private config alone and says nothing', async () => {
    const { deps, calls } = fakeDeps('darwin', { '/h/zhi/config.yaml': 0o600, '/h/zhi': 0o700 });
    expect(await fixPrivateMode('/h/zhi/config.yaml', deps)).toEqual({});
    expect(calls.chmod).toEqual([]);
  });

  it('does nothing for a missing file or on Windows', async () => {
    expect(await fixPrivateMode('/none', fakeDeps('linux', {}).deps)).toEqual({});
    const win = fakeDeps('win32', { 'C:\\z\\config.yaml': 0o666 });
    expect(await fixPrivateMode('C:\\z\\config.yaml', win.deps)).toEqual({});
    expect(win.calls.chmod).toEqual([]);
  });
});

describe('Windows: the config file restricted to the current user with icacls', () => {
  it('builds the icacls arguments: no inherited entries, full control for DOMAIN\\user only', () => {
    expect(
      icaclsArgs('C:\\Users\\li\\AppData\\Roaming\\zhi\\config.yaml', { USERNAME: 'li', USERDOMAIN: 'PC-1' }),
    ).toEqual([
      'C:\\Users\\li\\AppData\\Roaming\\zhi\\config.yaml',
      '/inheritance:r',
      '/grant:r',
      'PC-1\\li:F',
    ]);
    expect(icaclsArgs('c.yaml', { USERNAME: '张三' })).toEqual([
      'c.yaml',
      '/inheritance:r',
      '/grant:r',
      '张三:F',
    ]);
    expect(icaclsArgs('c.yaml', {})).toBeUndefined();
  });

  it('runs icacls on Windows only, and reports failure instead of throwing', async () => {
    const win = fakeDeps('win32', {}, { USERNAME: 'li', USERDOMAIN: 'PC' });
    expect(await restrictAcl('C:\\z\\config.yaml', win.deps)).toBe(true);
    expect(win.calls.run).toEqual([
      ['icacls', ['C:\\z\\config.yaml', '/inheritance:r', '/grant:r', 'PC\\li:F']],
    ]);
    const linux = fakeDeps('linux', {});
    expect(await restrictAcl('/h/config.yaml', linux.deps)).toBe(true);
    expect(linux.calls.run).toEqual([]);
    const failing = { ...win.deps, run: async () => Promise.reject(new Error('icacls failed')) };
    expect(await restrictAcl('C:\\z\\config.yaml', failing)).toBe(false);
  });
});
