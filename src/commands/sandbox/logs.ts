import { renderList } from '../../io/render.js';
import type { toolsCommands } from '../definitions/tools.js';
import { defineCommand } from '../types.js';
import type { SandboxAdmin } from './admin.js';
import { sandboxAdmin } from './admin.js';

export interface LogsOptions {
  follow: boolean;
  bodies: boolean;
}

/** The columns of the table view; --json shows every field. */
const TABLE_FIELDS = ['seq', 'at', 'method', 'path', 'status', 'code', 'replay', 'latency_ms'];

/** Every entry after `after`; with `follow`, waits for new ones (long polls) until the command is stopped. */
async function* entries(admin: SandboxAdmin, bodies: boolean, follow: boolean, signal: AbortSignal): AsyncGenerator<Record<string, unknown>> {
  let after = 0;
  // The first page is answered at once; from then on each request waits for news.
  for (let first = true; ; first = false) {
    const page = await admin.logs(after, first ? 0 : admin.longestWaitMs, bodies);
    for (const entry of page.entries) yield entry;
    after = Math.max(after, page.latest);
    if (!follow || signal.aborted) return;
  }
}

export default defineCommand<typeof toolsCommands.sandboxLogs, LogsOptions>({
  parse({ flags }) {
    return { follow: flags.follow, bodies: flags.bodies };
  },

  async run({ follow, bodies }, ctx) {
    const admin = await sandboxAdmin(ctx);
    try {
      const format = ctx.outputFormat();
      // A followed log never ends: JSON goes out one entry per line instead of one unfinished array.
      const shown = follow && format === 'json' ? 'ndjson' : format;
      const fields = ctx.fields() ?? (shown === 'table' || shown === 'csv' ? TABLE_FIELDS : undefined);
      await renderList(ctx.io, entries(admin, bodies, follow, ctx.signal), {
        format: shown,
        fields,
        now: await ctx.serviceNow(),
        stream: true,
        flushAfterMs: 50,
        emptyMessage: 'No requests yet.',
      });
    } finally {
      await admin.close();
    }
  },
});
