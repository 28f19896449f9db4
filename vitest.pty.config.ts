import { defineConfig } from 'vitest/config';

/**
 * The pseudo-terminal tier: the built CLI on a real pty, read through a headless terminal emulator
 * (test/helpers/pty.ts). `npm run test:pty` builds first; `npm test` does not run these.
 */
export default defineConfig({
  test: {
    include: ['test/pty/**/*.test.ts'],
    // A case waits for what the screen shows (events, not sleeps); this bounds a CLI that hangs.
    testTimeout: 60_000,
    hookTimeout: 20_000,
    setupFiles: ['test/helpers/replay-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
  },
});
