import { defineConfig } from 'vitest/config';

/**
 * The end-to-end tier: the built binary spawned against `parcels sandbox serve` and hostile servers
 * (bulk runs of thousands of lines counted on the service, daily exports, copies, outages, Ctrl-C,
 * completion in real shells, attacks). `npm run test:e2e` builds first; `npm test` does not run
 * these (they would take it past 3 minutes on 2 cores); `.ci/run` runs both.
 */
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 30_000,
    setupFiles: ['test/helpers/replay-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
  },
});
