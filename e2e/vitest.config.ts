import { defineConfig } from 'vitest/config';

// Browser tests: one real server (built bundle, fresh data folder, demo data) for the whole run,
// driven through Debian's Chromium by playwright-core.
export default defineConfig({
  test: {
    include: ['**/*.e2e.test.ts'],
    globalSetup: ['./global-setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
