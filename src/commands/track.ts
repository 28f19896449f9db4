import type { Context } from '../context.js';
import { NotDeliveredError, UsageError } from '../errors.js';
import type { CodeNames } from '../io/format.js';
import { renderList, renderMessage } from '../io/render.js';
import { sanitize } from '../io/sanitize.js';
import { isLoopbackUrl } from '../schemas/host.js';
import { forPeople, presentList, presentRecord } from '../io/present.js';
import { entrySummary, renderParcelTimeline, stateItem } from '../track/view.js';
import { entryJson, parcelState } from '../track/timeline.js';
import type { Snapshot } from '../track/watch.js';
import { sleep } from '../api/core/sleep.js';
import { watch } from '../track/watch.js';
import type { trackCommands } from '../definitions/track.js';
import { defineCommand } from '../command-kit/types.js';
import { parcelIds } from '../track/ids.js';
import { rememberParcelIds } from '../args/parcel-id.js';
import { readSnapshots } from '../track/read.js';
import { WatchPrinter } from '../track/watch-output.js';

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
    if (ctx.globals.fields !== undefined) {
      throw new UsageError('--fields does not apply to track; use --json for the parcel and its timeline, or --jq to pick values', '--fields');
    }
    if (!flags.watch) {
      if (flags.interval !== undefined) throw new UsageError('--interval works only with --watch', '--interval');
      if (flags.failOnAttempt) throw new UsageError('--fail-on-attempt works only with --watch', '--fail-on-attempt');
    }
    let intervalS: number | undefined;
    if (flags.watch) {
      // The profile's output setting is known only once the settings are read.
      const settings = await ctx.settings();
      if (ctx.outputFormat() === 'csv') throw new UsageError('--watch prints a table or NDJSON lines, not csv', '--output');
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
    // --watch owns its pause after a failed poll: its reads are not retried on top of it.
    const client = options.intervalS === undefined ? await ctx.api() : (await ctx.api()).withRetries(0);
    const format = ctx.outputFormat();
    const read = (ids: readonly string[]): Promise<Snapshot[]> => readSnapshots(client, ids, ctx.signal, options.several);
    // Names matter only to people reading tables; they are looked up while the parcels are read.
    const namesPromise: Promise<CodeNames | undefined> = format === 'table' ? ctx.codeNames() : Promise.resolve(undefined);

    if (options.intervalS === undefined) {
      const [snapshots, names] = await Promise.all([read(options.ids), namesPromise]);
      // Every id it shows stays known for prefixes, like list and get (--from's ids included).
      await rememberParcelIds(ctx, options.ids);
      if (options.several) await showSeveral(ctx, options.ids, snapshots, names);
      else await showOne(ctx, snapshots[0] as Snapshot, names);
      return;
    }

    const printer = new WatchPrinter(ctx, { several: options.several, names: await namesPromise });
    const end = await watch({
      ids: options.ids,
      intervalMs: options.intervalS * 1000,
      failOnAttempt: options.failOnAttempt,
      read,
      first: async (snapshots) => {
        await rememberParcelIds(ctx, options.ids);
        await printer.first(snapshots);
      },
      fresh: (batch) => printer.fresh(batch),
      pausing: (error, delayMs) => renderMessage(ctx.io, `${sanitize(error.message)}; polling again in ${Math.ceil(delayMs / 1000)} s`, 'warn'),
      sleep,
      signal: ctx.signal,
    });
    if (!end.delivered) {
      const what = entrySummary(end.attempt, { names: printer.names, now: await ctx.serviceNow(), colour: false });
      throw new NotDeliveredError(`parcel ${end.id} was not delivered: ${what}`);
    }
    // How it ended, for people (scripts read the NDJSON lines and the exit code).
    if (!ctx.globals.quiet && forPeople(ctx)) {
      await renderMessage(ctx.io, options.ids.length === 1 ? 'delivered; stopped watching' : `all ${options.ids.length} parcels delivered; stopped watching`);
    }
  },
});

async function showOne(ctx: Context, snapshot: Snapshot, names: CodeNames | undefined): Promise<void> {
  const format = ctx.outputFormat();
  const now = await ctx.serviceNow();
  const data = { parcel: snapshot.parcel, timeline: snapshot.timeline.map(entryJson) };
  if (format === 'table') {
    await renderParcelTimeline(ctx.io, snapshot.parcel, snapshot.timeline, { names, now });
  } else if (format === 'csv') {
    await renderList(ctx.io, data.timeline, { format, now });
  } else {
    await presentRecord(ctx, data, { format, now });
  }
}

/** Where each parcel stands: a table for people, one JSON line per parcel for scripts. */
async function showSeveral(ctx: Context, ids: readonly string[], snapshots: readonly Snapshot[], names: CodeNames | undefined): Promise<void> {
  const format = ctx.outputFormat();
  const now = await ctx.serviceNow();
  // --jq implies json.
  if (format === 'json' || format === 'ndjson') {
    const states = ids.map((id, i) => parcelState(id, snapshots[i]?.parcel, snapshots[i]?.timeline ?? []));
    await presentList(ctx, states, { format: 'ndjson', now });
    return;
  }
  const items = ids.map((id, i) => stateItem(id, snapshots[i]?.parcel, snapshots[i]?.timeline ?? [], { names, now }));
  await renderList(ctx.io, items, { format, names, now, view: 'states' });
}
