import { presentList } from '../../io/present.js';
import type { sandboxCommands } from '../../definitions/sandbox.js';
import { defineCommand } from '../../command-kit/types.js';
import type { SandboxAdmin } from '../../sandbox-admin.js';
import { sandboxAdmin } from '../../sandbox-admin.js';

export interface LogsOptions {
  follow: boolean;
  bodies: boolean;
  /** Only the latest this many of the entries already there; undefined: all the log holds. */
  limit: number | undefined;
}

/** The columns of piped and csv output; a terminal shows the request view, --json every field. */
const TABLE_FIELDS = ['seq', 'at', 'method', 'path', 'status', 'code', 'replay', 'latency_ms'];

/** Every entry after `after` (the latest `limit` of them); with `follow`, waits for new ones (long polls) until the command is stopped. */
async function* entries(admin: SandboxAdmin, opts: LogsOptions, signal: AbortSignal): AsyncGenerator<Record<string, unknown>> {
  let after = 0;
  // The first page is answered at once; from then on each request waits for news.
  for (let first = true; ; first = false) {
    const page = await admin.logs(after, first ? 0 : admin.longestWaitMs, opts.bodies);
    // The log holds a bounded number of entries, so the first page is small enough to cut here.
    for (const entry of first && opts.limit !== undefined ? page.entries.slice(-opts.limit) : page.entries) yield entry;
    after = Math.max(after, page.latest);
    if (!opts.follow || signal.aborted) return;
  }
}

export default defineCommand<typeof sandboxCommands.sandboxLogs, LogsOptions>({
  parse({ flags }) {
    return { follow: flags.follow, bodies: flags.bodies, limit: flags.limit };
  },

  async run(options, ctx) {
    const admin = await sandboxAdmin(ctx);
    try {
      const format = ctx.outputFormat();
      // A followed log never ends: JSON goes out one entry per line instead of one unfinished array.
      const shown = options.follow && format === 'json' ? 'ndjson' : format;
      const rows = shown === 'csv' || (shown === 'table' && !ctx.io.stdoutIsTTY);
      await presentList(ctx, entries(admin, options, ctx.signal), {
        format: shown,
        fields: ctx.fields() ?? (rows ? TABLE_FIELDS : undefined),
        view: 'requests',
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
