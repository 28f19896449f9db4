import { defineConfig } from 'vitest/config';

/**
 * The hostile tier: attack tests, one per promise of docs/security.md that an attacker would try
 * (hostile servers, tampered local files, other local ports and origins, escape sequences), and the
 * sandbox under random input and two processes racing on one file (sandbox-fuzz, sandbox-cross-process). `npm run
 * test:hostile` builds first (some cases spawn the built binary); `npm test` does not run these;
 * `.ci/run` runs both. Real Chromium, real shells and real terminals stay in their own tiers.
 */
export default defineConfig({
  test: {
    include: ['test/hostile/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    setupFiles: ['test/helpers/replay-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
  },
});
