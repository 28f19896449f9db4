import { spokenDuration } from '../schemas/time-text.js';
import { NotDeliveredError, ReportedFailure, UsageError } from '../errors.js';
import { renderMessage } from '../io/render.js';
import { sanitize } from '../io/sanitize.js';
import { isLoopbackUrl } from '../schemas/host.js';
import { assertPresentable } from '../io/present/kinds.js';
import { TIMELINE, TIMELINE_WATCH, TimelinePresenter } from '../io/present/timeline.js';
import { entrySummary } from '../track/view.js';
import type { Snapshot } from '../track/watch.js';
import { sleep } from '../api/core/sleep.js';
import { watch } from '../track/watch.js';
import type { trackCommands } from '../definitions/track.js';
import { defineCommand } from '../command-kit/types.js';
import { parcelIds } from '../track/ids.js';
import { rememberParcelIds } from '../args/parcel-id.js';
import { readSnapshots, readSnapshotsEach } from '../track/read.js';
import type { SnapshotResult } from '../track/read.js';
import { reportEach } from '../describe-error.js';
import { WatchUpdates, statesOf, timelineOf } from '../track/results.js';

export interface TrackOptions {
  ids: string[];
  /** The several-parcels view (more than one id, or ids from --from): one state row each. */
  several: boolean;
  /** Seconds between polls; undefined without --watch. */
  intervalS: number | undefined;
  failOnAttempt: boolean;
}

export const DEFAULT_INTERVAL_S = 30;
/** The shortest interval against a service on another machine; 1 s is allowed against this one. */
export const MIN_REMOTE_INTERVAL_S = 5;

export default defineCommand<typeof trackCommands.track, TrackOptions>({
  async parse({ args, flags }, ctx) {
    await assertPresentable(ctx, flags.watch ? TIMELINE_WATCH : TIMELINE);
    if (!flags.watch) {
      if (flags.interval !== undefined) throw new UsageError('--interval works only with --watch', '--interval');
      if (flags.failOnAttempt) throw new UsageError('--fail-on-attempt works only with --watch', '--fail-on-attempt');
    }
    let intervalS: number | undefined;
    if (flags.watch) {
      const settings = await ctx.settings();
      intervalS = flags.interval ?? DEFAULT_INTERVAL_S;
      if (intervalS < MIN_REMOTE_INTERVAL_S && !ctx.globals.sandbox && !isLoopbackUrl(settings.baseUrl)) {
        throw new UsageError(`--interval must be at least ${MIN_REMOTE_INTERVAL_S} seconds (1 against this machine) (got ${intervalS})`, '--interval');
      }
    }
    const ids = await parcelIds(args, flags.from, ctx);
    return { ids, several: ids.length > 1 || flags.from !== undefined, intervalS, failOnAttempt: flags.failOnAttempt };
  },

  async run(options, ctx) {
    if (options.ids.length === 0) {
      await renderMessage(ctx.io, 'No parcels to track: the --from input holds no parcel ids.', 'info');
      return;
    }
    const client = await ctx.api();
    const out = new TimelinePresenter(ctx);
    // --watch owns its pause after a failed poll: its reads are not retried on top of it.
    const retries = options.intervalS === undefined ? undefined : 0;
    const read = (ids: readonly string[]): Promise<Snapshot[]> => readSnapshots(client, ids, { signal: ctx.signal, retries }, options.several);

    if (options.intervalS === undefined && !options.several) {
      const snapshots = await read(options.ids);
      // Every id it shows stays known for prefixes, like list and get (--from's ids included).
      await rememberParcelIds(ctx, options.ids);
      await out.show(timelineOf(snapshots[0] as Snapshot));
      return;
    }
    if (options.intervalS === undefined) {
      // As kubectl does: what was found on stdout, one error per parcel that was not on stderr.
      const results = await readSnapshotsEach(client, options.ids, { signal: ctx.signal });
      const found = options.ids.flatMap((id, i) => {
        const result = results[i] as SnapshotResult;
        return result.read ? [{ id, snapshot: result.snapshot }] : [];
      });
      await rememberParcelIds(ctx, found.map(({ id }) => id));
      if (found.length > 0) await out.show(statesOf(found.map(({ id }) => id), found.map(({ snapshot }) => snapshot)));
      const failures = results.flatMap((result) => (result.read ? [] : [result.error]));
      if (failures.length > 0) throw new ReportedFailure(await reportEach(ctx, failures));
      return;
    }

    const updates = new WatchUpdates(options.several);
    const end = await watch({
      ids: options.ids,
      intervalMs: options.intervalS * 1000,
      failOnAttempt: options.failOnAttempt,
      read,
      first: async (snapshots) => {
        await rememberParcelIds(ctx, options.ids);
        await out.update(updates.first(snapshots));
      },
      fresh: (batch) => out.update(updates.fresh(batch)),
      pausing: (error, delayMs) => renderMessage(ctx.io, `${sanitize(error.message)}; polling again in ${spokenDuration(Math.ceil(delayMs / 1000))}`, 'warn'),
      sleep,
      signal: ctx.signal,
    });
    if (!end.delivered) {
      const what = entrySummary(end.attempt, { names: await out.names(), now: await ctx.serviceNow(), colour: false });
      throw new NotDeliveredError(`parcel ${end.id} was not delivered: ${what}`);
    }
    await out.end(options.ids.length === 1 ? 'delivered; stopped watching' : `all ${options.ids.length} parcels delivered; stopped watching`);
  },
});
