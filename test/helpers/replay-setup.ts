/**
 * Setup file of the default and pty configs: after each test (before its file's afterAll closes
 * the sandboxes) the hints its spawned runs printed are replayed (spawned-hints.ts), unless the file
 * replays them itself at its end (deferHintReplay).
 */
import { afterEach } from 'vitest';

afterEach(async () => {
  // Imported on first use: a static import would load the CLI's modules before a test file that
  // changes their definitions first (test/unit/global-flags-derived.test.ts) has run its own setup.
  const { hintReplayDeferred, replayTestHints } = await import('./spawned-hints.js');
  if (!hintReplayDeferred()) await replayTestHints();
});
