import { renderList } from '../../io/render.js';
import { durationText } from '../../io/time.js';
import type { followCommands } from '../definitions/follow.js';
import { defineCommand } from '../types.js';
import { listJournals } from '../../config/journal-list.js';
import { dataDir } from '../../config/paths.js';

/** Every bulk-run journal in the data directory (all targets), newest first. The outbox is listed by `parcels outbox`. */
export default defineCommand<typeof followCommands.batches, Record<string, never>>({
  parse() {
    return {};
  },

  async run(_options, ctx) {
    const journals = (await listJournals(dataDir(ctx.env), ctx.now() * 1000)).filter((journal) => journal.kind !== 'outbox');
    const rows = journals.map((journal) => ({
      batch: journal.batch,
      input: journal.input,
      done: journal.counts.done,
      rejected: journal.counts.rejected,
      uncertain: journal.counts.uncertain,
      age: durationText(Math.max(0, journal.ageMs / 1000)),
    }));
    await renderList(ctx.io, rows, { format: ctx.outputFormat(), fields: ctx.fields(), now: ctx.now(), view: 'batches', emptyMessage: 'No bulk-run journals.' });
  },
});
