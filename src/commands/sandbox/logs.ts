import { presentList } from '../../io/present.js';
import { renderMessage } from '../../io/render.js';
import type { sandboxCommands } from '../../definitions/sandbox.js';
import { defineCommand } from '../../command-kit/types.js';
import type { SandboxAdmin } from '../../sandbox-admin.js';
import { sandboxAdmin } from '../../sandbox-admin.js';
import { backoffDelay } from '../../api/core/policy.js';
import type { Timing } from '../../api/core/sleep.js';
import { realTiming } from '../../api/core/sleep.js';
import { UsageError } from '../../errors.js';
import type { LogFilter } from '../../schemas/log-filter.js';
import { STATUS_FILTER_RULE, parseStatusFilter } from '../../schemas/log-filter.js';

export interface LogsOptions {
  follow: boolean;
  bodies: boolean;
  /** Only the latest this many of the entries already there; undefined: all the log holds. */
  limit: number | undefined;
  /** Only entries after this sequence number. */
  after: number;
  filter: LogFilter;
}

/** The columns of piped and csv output; a terminal shows the request view, --json every field. */
const TABLE_FIELDS = ['seq', 'at', 'method', 'path', 'status', 'code', 'replay', 'latency_ms'];

const isFiltered = (filter: LogFilter): boolean => Object.keys(filter).length > 0;

/** The sequence number of an entry, when it has a usable one. */
function seqOf(entry: Record<string, unknown>): number | undefined {
  return typeof entry.seq === 'number' && Number.isSafeInteger(entry.seq) ? entry.seq : undefined;
}

/**
 * Every entry after `after` (the latest `limit` of them); with `follow`, waits for new ones (long
 * polls) until the command is stopped or the sandbox says it stops. An entry is printed once: only
 * those past the highest sequence number seen. A poll that brought nothing new is followed by a
 * pause (the request core's backoff, growing while nothing comes), so a server that answers at once
 * is not asked again at once.
 */
async function* entries(admin: SandboxAdmin, opts: LogsOptions, signal: AbortSignal, timing: Timing, stopped: () => void): AsyncGenerator<Record<string, unknown>> {
  let after = opts.after;
  const filtered = isFiltered(opts.filter);
  let idlePolls = 0;
  // The first page is answered at once; from then on each request waits for news.
  for (let first = true; ; first = false) {
    const page = await admin.logs(after, !opts.follow ? undefined : first ? 0 : admin.longestWaitMs, opts.bodies, opts.filter);
    const fresh = page.entries.filter((entry) => (seqOf(entry) ?? 0) > after);
    // The log holds a bounded number of entries, so the first page is small enough to cut here.
    for (const entry of first && opts.limit !== undefined ? fresh.slice(-opts.limit) : fresh) yield entry;
    // A filtered page holds every match up to `latest`: the entries it skipped are not asked for again.
    after = Math.max(after, ...fresh.map((entry) => seqOf(entry) as number), filtered && Number.isSafeInteger(page.latest) ? page.latest : 0);
    if (opts.follow && page.stopping === true) stopped();
    if (!opts.follow || page.stopping === true || signal.aborted) return;
    idlePolls = fresh.length === 0 ? idlePolls + 1 : 0;
    if (idlePolls > 0) await timing.sleep(backoffDelay(idlePolls, Math.random), signal);
  }
}

export default defineCommand<typeof sandboxCommands.sandboxLogs, LogsOptions>({
  parse({ flags }) {
    const filter: LogFilter = {};
    if (flags.route !== undefined) filter.route = flags.route;
    if (flags.method !== undefined) filter.method = flags.method.toUpperCase();
    if (flags.path !== undefined) filter.path = flags.path;
    if (flags.org !== undefined) filter.org = flags.org;
    if (flags.idempotencyKey !== undefined) filter.idempotencyKey = flags.idempotencyKey;
    if (flags.status !== undefined) {
      const status = parseStatusFilter(flags.status);
      if (status === undefined) throw new UsageError(`--status ${STATUS_FILTER_RULE} (got "${flags.status}")`, '--status');
      filter.status = status;
    }
    return { follow: flags.follow, bodies: flags.bodies, limit: flags.limit, after: flags.after ?? 0, filter };
  },

  async run(options, ctx) {
    const admin = await sandboxAdmin(ctx);
    let stopped = false;
    try {
      await presentList(ctx, entries(admin, options, ctx.signal, realTiming, () => (stopped = true)), {
        fields: ctx.fields(),
        rowFields: TABLE_FIELDS,
        // A followed log ends only when the sandbox stops.
        endless: options.follow,
        view: 'requests',
        now: await ctx.serviceNow(),
        stream: true,
        flushAfterMs: 50,
        emptyMessage: isFiltered(options.filter) || options.after > 0 ? 'No requests match.' : 'No requests yet.',
      });
    } finally {
      await admin.close();
    }
    if (stopped) await renderMessage(ctx.io, 'The sandbox stopped.', 'info');
  },
});
