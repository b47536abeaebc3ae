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
  },
});
