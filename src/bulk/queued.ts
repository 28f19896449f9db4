import type { Journal } from './journal/journal.js';
import { journalPath } from './journal/paths.js';
import { readJournal } from './journal/read.js';
import { OUTBOX_BATCH } from './outbox-batch.js';

/**
 * Lines a batch's journal marks queued (`--queue --from`) that no longer wait in the target's
 * outbox — dropped with `outbox drop`, or flushed while a run held the batch — are sent again by
 * the next run, with the same key and bytes (the service replays one it has). The outbox is read
 * only when the batch has queued lines.
 */
export async function releaseQueued(journal: Journal, dir: string, target: string): Promise<void> {
  const queued = [...journal.previous.values()].filter((state) => state.queued !== undefined);
  if (queued.length === 0) return;
  const outbox = await readJournal(journalPath(dir, target, OUTBOX_BATCH));
  const waiting = new Set<string>();
  for (const state of outbox.lines.values()) if (state.sent !== undefined && state.rejected === undefined) waiting.add(state.sent.key);
  for (const state of queued) {
    if (state.sent === undefined || !waiting.has(state.sent.key)) delete state.queued;
  }
}
