import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // 2-core machines: keep parallelism modest so timing-sensitive e2e tests stay stable.
    maxWorkers: 2,
  },
});
