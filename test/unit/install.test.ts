import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeCheck } from '../../src/cli/commands/doctor-node.js';
import { versionLine } from '../../src/cli/version.js';
import { setLanguage } from '../../src/support/i18n/index.js';
import {
  builtinSkillsDir,
  installKind,
  nodeEndOfLife,
  nodeSupport,
  readAsset,
} from '../../src/support/install.js';

const root = join(import.meta.dirname, '../..');

describe('how zhi was installed, and what it ships', () => {
  it('a checkout runs "from source"; --version says so, with the Node it runs on', () => {
    expect(installKind()).toBe('source');
    expect(versionLine()).toBe(`0.0.0-test (from source, Node ${process.version})`);
  });

  it('reads its assets from dist/assets (the shell grammar is WebAssembly) and built-in skills from skills/', async () => {
    const wasm = await readAsset('tree-sitter/tree-sitter-bash.wasm');
    expect([...wasm.subarray(0, 4)]).toEqual([0x00, 0x61, 0x73, 0x6d]);
    expect((await readAsset('pdfjs/cmaps/GBK-EUC-H.bcmap')).length).toBeGreaterThan(1000);
    expect(builtinSkillsDir('/nowhere')).toBe(join(root, 'skills'));
  });

  it('the npm package has no dependencies: everything it runs is bundled into dist/', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(pkg.scripts.prepack).toContain('build');
  });
});

describe("Node's end of life", () => {
  it('follows the release schedule: even majors end on 30 April, odd ones on 1 June', () => {
    expect(nodeEndOfLife(20)).toBe('2026-04-30');
    expect(nodeEndOfLife(22)).toBe('2027-04-30');
    expect(nodeEndOfLife(24)).toBe('2028-04-30');
    expect(nodeEndOfLife(23)).toBe('2025-06-01');
    expect(nodeEndOfLife(25)).toBe('2026-06-01');
  });

  it('is reached on the day itself', () => {
    expect(nodeSupport('v20.20.2', new Date('2026-04-29T12:00:00Z')).ended).toBe(false);
    expect(nodeSupport('v20.20.2', new Date('2026-04-30T12:00:00Z')).ended).toBe(true);
    expect(nodeSupport('v22.23.2', new Date('2026-11-27T00:00:00Z'))).toEqual({
      version: 'v22.23.2',
      endOfLife: '2027-04-30',
      ended: false,
    });
  });

  it('doctor warns on an ended Node from npm, with what to do, in English and Chinese', () => {
    const ended = nodeSupport('v20.20.2', new Date('2026-11-27T00:00:00Z'));
    const npm = nodeCheck('npm', ended);
    expect(npm.note).toBe(true);
    expect(npm.lines[0]).toBe(
      'Node v20.20.2 (npm package) reached its end of life on 2026-04-30: it no longer gets security fixes.',
    );
    expect(npm.lines[1]).toContain('22 or 24');
    setLanguage('zh');
    try {
      expect(nodeCheck('npm', ended).lines[0]).toBe(
        'Node v20.20.2（npm 安装包）已于 2026-04-30 停止维护：不再有安全更新。',
      );
    } finally {
      setLanguage('en');
    }
  });

  it('doctor reports the Node inside an executable as its own', () => {
    const current = nodeSupport('v22.23.2', new Date('2026-11-27T00:00:00Z'));
    expect(nodeCheck('exe', current)).toEqual({
      ok: true,
      lines: ['Node v22.23.2, inside the executable (supported until 2027-04-30).'],
    });
    const ok = nodeCheck('source', current);
    expect(ok.ok).toBe(true);
    expect(ok.lines[0]).toBe('Node v22.23.2 (from source), supported until 2027-04-30.');
  });
});
