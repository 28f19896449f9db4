/**
 * Setup file of the default and pty configs: after each test (before its file's afterAll closes
 * the sandboxes) the hints its spawned runs printed are replayed (spawned-hints.ts), unless the file
 * replays them itself at its end (deferHintReplay). Before a file's first test, what an earlier
 * file of the same worker left recorded is dropped: without isolation (the default config's `shared`
 * project) the helpers' modules, and so their lists, outlive a file.
 */
import { afterEach, beforeAll } from 'vitest';

// Imported on first use: a static import would load the CLI's modules before a test file that
// changes their definitions first (test/unit/global-flags-derived.test.ts) has run its own setup.
const hints = () => import('./spawned-hints.js');

beforeAll(async () => {
  (await hints()).startFileHints();
});

afterEach(async () => {
  const { hintReplayDeferred, replayTestHints } = await hints();
  if (!hintReplayDeferred()) await replayTestHints();
});
