import { presentList } from '../io/present.js';
import { ageText } from '../schemas/time-text.js';
import type { batchesCommands } from '../definitions/batches.js';
import { defineCommand } from '../command-kit/types.js';
import type { JournalSummary, UnreadableJournal } from '../bulk/journal/list.js';
import { rebuildAdvice } from '../bulk/journal/read.js';
import { renderMessage } from '../io/render.js';
import type { Context } from '../context.js';
import { listJournals, queuedOf } from '../bulk/journal/list.js';
import { dataDir } from '../config/paths.js';
import { readNewest } from '../bulk/newest.js';
import type { BulkKind } from '../bulk/types.js';

/**
 * Every bulk-run journal in the data directory (all targets), newest first: the batch id as the
 * run's summary prints it, the target it belongs to, and its last run's counts in the summary's
 * words (`done`: every line confirmed so far; `queued`: kept in the outbox by `--queue`, not cancelled); a file's batch that a later --new-batch of the same
 * path replaced names the batch a plain run of that path now uses (`superseded_by`). The outbox is
 * listed by `parcels outbox`.
 */
export default defineCommand<typeof batchesCommands.batches, Record<string, never>>({
  parse() {
    return {};
  },

  async run(_options, ctx) {
    const dir = dataDir(ctx.env);
    const listing = await listJournals(dir, ctx.now() * 1000);
    await warnUnreadable(ctx, listing.unreadable);
    const journals = listing.journals.filter((journal) => journal.kind !== 'outbox');
    const rows = journals.map((journal) => ({
      batch: batchId(journal),
      ...supersededBy(dir, journal),
      kind: journal.kind,
      target: journal.where ?? journal.target,
      input: journal.input,
      done: journal.counts.done,
      failed: journal.lastRun?.failed ?? journal.counts.rejected + journal.counts.uncertain,
      invalid: journal.lastRun?.invalid ?? 0,
      cancelled: journal.lastRun?.cancelled ?? 0,
      queued: queuedOf(journal),
      age: ageText(journal.ageMs / 1000),
    }));
    await presentList(ctx, rows, { fields: ctx.fields(), now: ctx.now(), view: 'batches', emptyMessage: 'No bulk-run journals.' });
  },
});

/** A journal that cannot be read is named with how to rebuild it; the others are listed as ever. */
async function warnUnreadable(ctx: Context, unreadable: readonly UnreadableJournal[]): Promise<void> {
  for (const { path, problem } of unreadable) {
    await renderMessage(ctx.io, `skipped a journal that cannot be read: ${problem}`, 'warn');
    await renderMessage(ctx.io, `Hint: ${rebuildAdvice(path)}`);
  }
}

/** A file's batch (named by the CLI: 16 hex digits) when a --new-batch of the same path made another its newest. */
function supersededBy(dir: string, journal: JournalSummary): { superseded_by?: string } {
  const id = batchId(journal);
  if (journal.input === '-' || !/^[0-9a-f]{16}$/.test(id) || !['create', 'events', 'attempts'].includes(journal.kind)) return {};
  const newest = readNewest(dir, journal.target, journal.kind as BulkKind, journal.input);
  return newest === undefined || newest.batch === id ? {} : { superseded_by: newest.batch };
}

/** `create~<id>` → `<id>`, as the summary and `--batch-id` name it; a journal of version 1 keeps its name. */
function batchId(journal: JournalSummary): string {
  const prefix = `${journal.kind}~`;
  return journal.batch.startsWith(prefix) ? journal.batch.slice(prefix.length) : journal.batch;
}
