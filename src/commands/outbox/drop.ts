import { journalTarget } from '../../bulk/target.js';
import { dropFromOutbox } from '../../bulk/outbox.js';
import type { DropSelection } from '../../bulk/outbox.js';
import { dataDir } from '../../config/paths.js';
import { UsageError } from '../../errors.js';
import { renderLine, renderMessage } from '../../io/render.js';
import type { outboxCommands } from '../../definitions/outbox.js';
import type { HintPart } from '../../hint/hint.js';
import { defineCommand } from '../../command-kit/types.js';
import { entrySummary } from '../../bulk/outbox-describe.js';

const SEE_OUTBOX: readonly HintPart[] = ['run ', { run: ['outbox'] }, ' to see the entries and their numbers'];

/**
 * Removes outbox entries for good: a rejected one has no other way out (a flush never retries it),
 * and a waiting one the user no longer wants sent. Nothing else changes order or keys.
 */
export default defineCommand<typeof outboxCommands.outboxDrop, DropSelection>({
  parse({ args, flags }) {
    if (flags.rejected && args.length > 0) throw new UsageError('give entry numbers or --rejected, not both', '--rejected');
    if (flags.rejected) return { rejected: true };
    if (args.length === 0) throw new UsageError('give the numbers of the entries to remove (the seq column of the outbox), or --rejected', 'SEQ', undefined, undefined, SEE_OUTBOX);
    const seqs = args.map((arg) => {
      if (!/^[1-9]\d{0,9}$/.test(arg)) throw new UsageError(`SEQ must be an entry number from the seq column of the outbox (got "${arg}")`, 'SEQ', undefined, undefined, SEE_OUTBOX);
      return Number(arg);
    });
    return { seqs };
  },

  async run(selection, ctx) {
    const { dropped, unknown } = await dropFromOutbox({ dir: dataDir(ctx.env), target: await journalTarget(ctx) }, selection);
    if (unknown.length > 0) {
      throw new UsageError(`no outbox entry ${unknown.join(', ')}; nothing was removed`, 'SEQ', undefined, undefined, SEE_OUTBOX);
    }
    if (ctx.globals.quiet) {
      for (const entry of dropped) await renderLine(ctx.io, String(entry.seq));
      return;
    }
    if (dropped.length === 0) {
      await renderMessage(ctx.io, 'No rejected entries in the outbox; nothing was removed.');
      return;
    }
    for (const entry of dropped) await renderMessage(ctx.io, `Removed #${entry.seq}: ${entrySummary(entry)}`, 'success');
  },
});
