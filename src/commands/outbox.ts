import { terminalShortIds } from '../io/short-ids.js';
import { journalTarget } from '../bulk/target.js';
import { presentList } from '../io/present.js';
import { renderLine } from '../io/render.js';
import { isoSeconds } from '../schemas/time-text.js';
import { entryWhat } from '../bulk/outbox-describe.js';
import type { outboxCommands } from '../definitions/outbox.js';
import { defineCommand } from '../command-kit/types.js';
import { listOutbox } from '../bulk/outbox.js';
import { dataDir } from '../config/paths.js';

/** What waits in the outbox of this profile and base URL (or of the --sandbox database), in capture order. */
export default defineCommand<typeof outboxCommands.outbox, Record<string, never>>({
  parse() {
    return {};
  },

  async run(_options, ctx) {
    const entries = await listOutbox({ dir: dataDir(ctx.env), target: await journalTarget(ctx) });
    if (ctx.globals.quiet) {
      // -q: the entry numbers alone, e.g. for `parcels outbox drop $(parcels outbox -q)`.
      for (const entry of entries) await renderLine(ctx.io, String(entry.seq));
      return;
    }
    // Capture times are on the service's clock (src/bulk/queue.ts), as are the times their requests carry.
    const now = await ctx.serviceNow();
    const rows = entries.map((entry) => ({
      seq: entry.seq,
      // Whole seconds since capture, a number for scripts (the table says it as `17s`).
      age: Math.max(0, Math.floor(now - entry.capturedAt / 1000)),
      captured_at: isoSeconds(entry.capturedAt / 1000),
      command: entry.command,
      parcel: entry.parcel ?? null,
      what: entryWhat(entry),
      state: entry.state === 'waiting' ? 'waiting' : `rejected ${entry.status ?? ''} ${entry.code ?? ''}`.trim(),
    }));
    await presentList(ctx, rows, {
      fields: ctx.fields(),
      now,
      view: 'outbox',
      shortId: await terminalShortIds(ctx),
      emptyMessage: 'The outbox is empty.',
    });
  },
});
