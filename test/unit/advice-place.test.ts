import { describe, expect, it } from 'vitest';
import { adviceFor } from '../../src/cli/advice.js';
import { formatError } from '../../src/cli/render/error.js';
import { makeStyle } from '../../src/cli/render/style.js';
import { ZhiError } from '../../src/support/errors.js';

// Where an error is read is a property of the call (the REPL's drawing passes it), not a module
// flag the REPL turns on: a one-shot error in the same process still names the flag.
const overloaded = () =>
  new ZhiError({ kind: 'internal', what: { key: 'cli.error' }, tries: [{ key: 'llm.overloaded.try' }] });

describe('advice fitted to where it is read', () => {
  it('names /model inside the REPL and not outside, in one process', () => {
    expect(adviceFor(overloaded(), {}, true).join(' ')).toContain('/model');
    expect(adviceFor(overloaded(), {}).join(' ')).not.toContain('/model');
    const plain = makeStyle(false);
    expect(formatError(overloaded(), plain, { inRepl: true })).toContain('/model');
    expect(formatError(overloaded(), plain)).not.toContain('/model');
  });
});
