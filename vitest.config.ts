import { defineConfig } from 'vitest/config';

// Four projects, so that a change can be checked in seconds (`npm run test:unit`) before the
// whole suite (`npm test` runs them all):
// - unit: the core, the shell, the plugins' handlers and rules, the contracts (no server, no build);
// - server: the real server over HTTP on SQLite, PostgreSQL and MySQL, the security matrix,
//   the MCP helper, the terminal client (spawned, and in tmux), and the plugin tests that
//   start a server (`*.server.test.ts`);
// - build: what needs a Vite build (the first paint's weight, the Storybook build);
// - e2e: the real built app and server driven in Debian's Chromium through Playwright.
const unit = ['src/core/**/*.test.ts', 'src/shell/**/*.test.ts', 'plugins/**/*.test.ts', 'examples/**/*.test.ts', 'tests/contract/**/*.test.ts'];
const build = ['tests/contract/initialLoad.test.ts', 'tests/contract/storybook.test.ts'];
const server = [
  'src/server/**/*.test.ts',
  'src/helper/**/*.test.ts',
  'plugins/**/*.server.test.ts',
  'tests/server/**/*.test.ts',
  'tests/security/**/*.test.ts',
  'tests/fixtures/**/*.test.ts',
  'src/cli/**/*.test.ts',
];

export default defineConfig({
  test: {
    reporters: ['default', './tests/harness/summaryReporter.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: unit,
          exclude: ['**/*.server.test.ts', '**/*.e2e.test.ts', ...build],
          environment: 'node',
          // The unit files mock nothing and patch no globals, so they share one module graph per
          // worker: each file importing the core, the markdown renderer and the manifests afresh
          // was half the loop's CPU (issue 35). Two workers: the default on 2 cores is one.
          isolate: false,
          maxWorkers: 2,
          // The renderer's whole-text and property tests take 1-4 s alone, and they share the 2
          // cores with the server and browser projects in CI: 5 s (vitest's default) cut them at load 11.
          testTimeout: 20_000,
        },
      },
      { test: { name: 'server', include: server, exclude: ['**/*.browser.test.ts'], environment: 'node' } },
      { test: { name: 'build', include: build, environment: 'node' } },
      {
        test: {
          name: 'e2e',
          // Attacks that need a browser live with the other attacks (tests/security/*.browser.test.ts);
          // a plugin's own browser tests are `plugins/<id>/*.e2e.test.ts`.
          include: ['tests/e2e/**/*.test.ts', 'tests/security/**/*.browser.test.ts', 'plugins/**/*.e2e.test.ts'],
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
