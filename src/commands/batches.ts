import { presentList } from '../io/present.js';
import { durationText } from '../io/time.js';
import type { batchesCommands } from '../definitions/batches.js';
import { defineCommand } from '../command-kit/types.js';
import type { JournalSummary } from '../bulk/journal/list.js';
import { listJournals } from '../bulk/journal/list.js';
import { dataDir } from '../config/paths.js';

/**
 * Every bulk-run journal in the data directory (all targets), newest first: the batch id as the
 * run's summary prints it, the target it belongs to, and its last run's counts in the summary's
 * words (`done`: every line confirmed so far). The outbox is listed by `parcels outbox`.
 */
export default defineCommand<typeof batchesCommands.batches, Record<string, never>>({
  parse() {
    return {};
  },

  async run(_options, ctx) {
    const journals = (await listJournals(dataDir(ctx.env), ctx.now() * 1000)).filter((journal) => journal.kind !== 'outbox');
    const rows = journals.map((journal) => ({
      batch: batchId(journal),
      kind: journal.kind,
      target: journal.where ?? journal.target,
      input: journal.input,
      done: journal.counts.done,
      failed: journal.lastRun?.failed ?? journal.counts.rejected + journal.counts.uncertain,
      invalid: journal.lastRun?.invalid ?? 0,
      cancelled: journal.lastRun?.cancelled ?? 0,
      age: durationText(Math.max(0, journal.ageMs / 1000)),
    }));
    await presentList(ctx, rows, { fields: ctx.fields(), now: ctx.now(), view: 'batches', emptyMessage: 'No bulk-run journals.' });
  },
});

/** `create~<id>` → `<id>`, as the summary and `--batch-id` name it; a journal of version 1 keeps its name. */
function batchId(journal: JournalSummary): string {
  const prefix = `${journal.kind}~`;
  return journal.batch.startsWith(prefix) ? journal.batch.slice(prefix.length) : journal.batch;
}
