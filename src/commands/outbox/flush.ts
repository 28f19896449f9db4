import { engineClient, engineRetries } from '../../bulk/command.js';
import { journalTarget } from '../../bulk/target.js';
import { EXIT, ReportedFailure } from '../../errors.js';
import { renderBulkSummary } from '../../io/bulk-report.js';
import { renderLine } from '../../io/render.js';
import type { followCommands } from '../definitions/follow.js';
import { defineCommand } from '../types.js';
import { flushOutbox } from '../../bulk/outbox.js';
import { sendThrough } from '../../bulk/client-send.js';
import { dataDir } from '../../config/paths.js';

/**
 * Sends the outbox in capture order with the captured keys and bytes; one NDJSON result per entry
 * on stdout, a summary on stderr. Stops at the first entry the service still cannot take (the rest
 * wait for the next flush); exits non-zero while anything is left.
 */
export default defineCommand<typeof followCommands.outboxFlush, Record<string, never>>({
  parse() {
    return {};
  },

  async run(_options, ctx) {
    const target = await journalTarget(ctx);
    const retries = await engineRetries(ctx);
    const client = await engineClient(ctx, 1);
    try {
      const summary = await flushOutbox(
        { dir: dataDir(ctx.env), target },
        {
          send: sendThrough(client),
          gate: client.gate,
          emit: (result) => renderLine(ctx.io, JSON.stringify(result)),
          retries,
          signal: ctx.signal,
          abandon: ctx.claimSecondSignal(),
        },
      );
      await renderBulkSummary(ctx.io, summary);
      if (summary.exitCode !== EXIT.OK) throw new ReportedFailure(summary.exitCode);
      if (summary.left > 0) throw new ReportedFailure(EXIT.UNAVAILABLE);
    } finally {
      await client.close();
    }
  },
});
