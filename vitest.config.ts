import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The files that need a fresh module registry and process of their own: they replace modules
 * (vi.mock, vi.doMock, vi.resetModules), count what a run loads, or change the process's env or
 * globals. Every other file of the tier shares its worker's loaded modules with the files before it.
 */
const ISOLATED = [
  'test/unit/bulk-outbox.test.ts', // vi.mock of the bulk sleep
  'test/unit/field-table.test.ts', // vi.mock of the field table
  'test/unit/global-flags-derived.test.ts', // vi.mock of the global flag definitions
  'test/unit/io-lazy.test.ts', // vi.mock of string-width and ora; asserts what a format loads
  'test/unit/undici-entry.test.ts', // vi.resetModules and vi.doMock of undici's internals
  'test/unit/time-flags.test.ts', // sets process.env.TZ
  'test/sandbox/testing.test.ts', // vi.stubEnv('CI') and a spy on process.stderr.write
];

// Tiers with their own config and script: the pseudo-terminal tests (vitest.pty.config.ts,
// `npm run test:pty`), the real-Chromium tests (vitest.browser.config.ts, `npm run test:browser`)
// and the end-to-end runs of the built binary (vitest.e2e.config.ts, `npm run test:e2e`). test/packed/
// runs in a scratch project against the packed package (scripts/test-packed.mjs, `npm run test:packed`).
const OTHER_TIERS = ['test/pty/**', 'test/browser/**', 'test/e2e/**', 'test/hostile/**', 'test/packed/**'];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    setupFiles: ['test/helpers/replay-setup.ts'],
    pool: 'forks',
    // Three on a 2-core machine: these files wait on loopback HTTP and child processes part of the
    // time, so a third worker fills the cores (113 s instead of 136 s for the tier, a fresh clone's
    // order); the end-to-end and pty tiers keep their own, smaller settings.
    maxWorkers: 3,
    projects: [
      { extends: true, test: { name: 'isolated', include: ISOLATED, exclude: [...configDefaults.exclude, ...OTHER_TIERS] } },
      {
        extends: true,
        // Most of the tier's time was each file importing the CLI and the sandbox again in a new
        // process (vitest's "import"); without isolation a worker loads them once for all its files.
        // A file still starts with no hints left over from the one before (replay-setup.ts).
        test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...OTHER_TIERS, ...ISOLATED], isolate: false },
      },
    ],
  },
});
