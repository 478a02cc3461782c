/**
 * Issue 23 point 8, measured: an independent list of catastrophic command lines must be refused
 * (at least 95 %; the ones that pass are printed), and a list of everyday lines must not be.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { assessCommand } from '../../src/tools/shell/policy.js';
import { loadBashParser } from '../../src/tools/shell/tree.js';
import { BENIGN, CATASTROPHIC } from '../fixtures/shell/catastrophic.js';

beforeAll(async () => {
  await loadBashParser();
});

const opts = {
  home: '/home/ann',
  cwd: '/home/ann/work',
  outputDir: '/home/ann/work/zhi-output',
  platform: 'linux' as const,
};

describe('the catastrophic list', () => {
  it('is refused (at least 95 %)', () => {
    const passed = CATASTROPHIC.filter((c) => assessCommand(c, opts).level !== 'refuse');
    const refused = CATASTROPHIC.length - passed.length;
    console.log(
      `refused ${refused}/${CATASTROPHIC.length}; not refused:\n${passed.map((c) => `  ${c}`).join('\n')}`,
    );
    expect(refused / CATASTROPHIC.length).toBeGreaterThanOrEqual(0.95);
  });
});

describe('the everyday list', () => {
  for (const command of BENIGN) {
    it(`is not refused: ${JSON.stringify(command)}`, () => {
      const v = assessCommand(command, opts);
      expect(v.level, JSON.stringify(v.findings.map((f) => f.rule))).not.toBe('refuse');
    });
  }
});
