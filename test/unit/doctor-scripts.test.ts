import { beforeAll, describe, expect, it } from 'vitest';
import { scriptsCheck } from '../../src/cli/commands/doctor-sandbox.js';
import { setLanguage } from '../../src/support/i18n/index.js';

beforeAll(() => setLanguage('en'));

describe('zhi doctor: the interpreters run_script finds', () => {
  it('names each with its path, and says what to do for a missing one (a note, not a fault)', () => {
    expect(scriptsCheck({ python: '/usr/bin/python3', node: '/usr/bin/node' })).toEqual({
      ok: true,
      optional: true,
      lines: [
        'Scripts the model writes (run_script): Python 3 at /usr/bin/python3.',
        'Scripts the model writes (run_script): Node.js at /usr/bin/node.',
      ],
    });
    const missing = scriptsCheck({ node: '/usr/bin/node' });
    expect(missing.ok).toBe(false);
    expect(missing.optional).toBe(true);
    expect(missing.lines[0]).toBe(
      'Scripts the model writes (run_script): Python 3 is not installed (or not on PATH); install it, or set ZHI_PYTHON to its path.',
    );
  });
});
