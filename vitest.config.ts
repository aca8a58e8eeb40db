import { defineConfig } from 'vitest/config';

// Two projects: fast unit/contract/server tests in Node, and browser end-to-end tests that
// drive Debian's Chromium through Playwright against the real built app and server.
export default defineConfig({
  test: {
    reporters: ['default', './tests/harness/summaryReporter.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'plugins/**/*.test.ts', 'tests/contract/**/*.test.ts', 'tests/server/**/*.test.ts', 'tests/security/**/*.test.ts', 'tests/fixtures/**/*.test.ts', 'examples/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/e2e/globalSetup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
