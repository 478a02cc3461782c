import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { slowdown } from './test/helpers/slowdown.js';

/** Ceilings of a quiet machine, stretched by the load when the run starts (test/helpers/slowdown.ts). */
const CEILING_MS = Math.round(60_000 * slowdown());

export default defineConfig({
  define: { __ZHI_VERSION__: JSON.stringify('0.0.0-test') },
  test: {
    globalSetup: ['test/global-setup.ts'],
    // Ceilings only: a test waits for what it expects and ends at once. On a machine shared by
    // many test runs a single zhi start can take seconds, so the ceiling is generous.
    testTimeout: CEILING_MS,
    hookTimeout: CEILING_MS,
    pool: 'forks',
    // An end-to-end test spends most of its time waiting on a child zhi (its start-up, the fake
    // API, a pty), so one more file than there are cores runs at once. Vitest's default
    // (cores - 1) ran a single file at a time on a 2-core machine, leaving a core idle.
    maxWorkers: availableParallelism() + 1,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      {
        extends: true,
        // A test that starts processes (zhi, a pty, a browser, Wine) is tried once more when it
        // fails, as gemini-cli's integration tests are: a machine starved for seconds can still
        // miss a ceiling. A logic test gets no second try: a failure there is a failure.
        test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], retry: 1 },
      },
    ],
  },
});
