import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Tiers with their own config and script: the pseudo-terminal tests (vitest.pty.config.ts,
    // `npm run test:pty`), the real-Chromium tests (vitest.browser.config.ts, `npm run test:browser`)
    // and the end-to-end runs of the built binary (vitest.e2e.config.ts, `npm run test:e2e`). test/packed/
    // runs in a scratch project against the packed package (scripts/test-packed.mjs, `npm run test:packed`).
    exclude: [...configDefaults.exclude, 'test/pty/**', 'test/browser/**', 'test/e2e/**', 'test/hostile/**', 'test/packed/**'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    setupFiles: ['test/helpers/replay-setup.ts'],
    pool: 'forks',
    // Three on a 2-core machine: these files wait on loopback HTTP and child processes part of the
    // time, so a third worker fills the cores (113 s instead of 136 s for the tier, a fresh clone's
    // order); the end-to-end and pty tiers keep their own, smaller settings.
    maxWorkers: 3,
  },
});
