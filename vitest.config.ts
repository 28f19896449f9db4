import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The pseudo-terminal tier has its own config and script (vitest.pty.config.ts, `npm run test:pty`).
    exclude: [...configDefaults.exclude, 'test/pty/**'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // 2-core machines: keep parallelism modest so timing-sensitive e2e tests stay stable.
    maxWorkers: 2,
  },
});
