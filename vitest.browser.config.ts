import { defineConfig } from 'vitest/config';

/** `npm run test:browser`: the web inspector in a real Chromium (scripts/chromium.mjs), after a build. */
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One Chromium at a time: the machine has 2 cores.
    maxWorkers: 1,
  },
});
