import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each test file gets its own database (PGlite in memory, or a fresh database on TEST_DATABASE_URL),
    // copied from the migrated one global-setup makes once per run.
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    fileParallelism: true,
    // A worker keeps its modules from one file to the next instead of importing the whole server
    // again for each (import time was a third of the run: 230 of 699 s on the 2-core machine).
    // Nothing a test file leaves behind reaches the next: state kept in modules is per database
    // (lib/memo.ts, the integrity rate window), env stubs are undone, spies restored.
    isolate: false,
  },
});
