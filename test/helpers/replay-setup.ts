/**
 * Setup file of the default and pty configs: after each test (before its file's afterAll closes
 * the sandboxes) the hints its spawned runs printed are replayed (spawned-hints.ts).
 */
import { afterEach } from 'vitest';
import { replayTestHints } from './spawned-hints.js';

afterEach(async () => {
  await replayTestHints();
});
