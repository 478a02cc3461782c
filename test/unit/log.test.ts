import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/support/log.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

const dirs: string[] = [];
afterEach(() => cleanup(...dirs.splice(0)));

describe('log file', () => {
  it('rotates at the size limit and keeps three files', () => {
    const dir = tempDir();
    dirs.push(dir);
    const logger = createLogger({ dir, maxBytes: 1000, level: 'debug' });
    for (let i = 0; i < 100; i++) logger.info(`line ${i} ${'x'.repeat(50)}`);
    const file = join(dir, 'zhi.log');
    expect(existsSync(file)).toBe(true);
    expect(existsSync(`${file}.1`)).toBe(true);
    expect(existsSync(`${file}.2`)).toBe(true);
    expect(existsSync(`${file}.3`)).toBe(false);
    expect(statSync(file).size).toBeLessThanOrEqual(1000 + 100);
    expect(readFileSync(file, 'utf8')).toContain('line 99');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('filters by level', () => {
    const dir = tempDir();
    dirs.push(dir);
    const logger = createLogger({ dir, level: 'warn' });
    logger.info('quiet');
    logger.warn('loud');
    const text = readFileSync(join(dir, 'zhi.log'), 'utf8');
    expect(text).toContain('loud');
    expect(text).not.toContain('quiet');
  });
});
