import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  define: { __ZHI_VERSION__: JSON.stringify('0.0.0-test') },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Ceilings only: a test waits for what it expects and ends at once. On a machine shared by
    // many test runs a single zhi start can take seconds, so the ceiling is generous.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // An end-to-end test spends most of its time waiting on a child zhi (its start-up, the fake
    // API, a pty), so one more file than there are cores runs at once. Vitest's default
    // (cores - 1) ran a single file at a time on a 2-core machine, leaving a core idle.
    maxWorkers: availableParallelism() + 1,
  },
});
