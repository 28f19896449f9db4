import { defineConfig } from 'vitest/config';

/**
 * The bulk end-to-end tier: the built CLI's `--from` runs against `parcels sandbox serve`, counting
 * parcels on the service (thousands of lines, daily exports, copies, outages, Ctrl-C). `npm run
 * test:bulk` builds first; `npm test` does not run these (they would take it past 3 minutes);
 * `.ci/run` runs both.
 */
export default defineConfig({
  test: {
    include: ['test/e2e/bulk*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 30_000,
    setupFiles: ['test/helpers/replay-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
  },
});
