import { describe, expect, it } from 'vitest';
import { isNewer } from '../../src/cli/update-check.js';

describe('isNewer', () => {
  it.each([
    ['0.2.0', '0.1.0', true],
    ['0.1.10', '0.1.9', true],
    ['1.0.0', '0.99.99', true],
    ['0.1.0', '0.1.0', false],
    ['0.1.0', '0.2.0', false],
    ['0.2.0-rc.1', '0.1.0', true],
    ['0.2.0-rc.1', '0.2.0', false],
    ['0.2.0', '0.2.0-rc.1', true],
    ['0.2.0-rc.2', '0.2.0-rc.1', true],
  ])('%s after %s: %s', (a, b, expected) => {
    expect(isNewer(a, b)).toBe(expected);
  });
});
