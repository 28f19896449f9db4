import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Real-Chromium tests have their own run: npm run test:browser (vitest.browser.config.ts).
    exclude: [...configDefaults.exclude, 'test/browser/**'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // 2-core machines: keep parallelism modest so timing-sensitive e2e tests stay stable.
    maxWorkers: 2,
  },
});
