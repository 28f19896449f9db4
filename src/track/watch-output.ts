import type { Context } from '../context.js';
import type { CodeNames } from '../io/format.js';
import { presentList } from '../io/present.js';
import { renderHeading, renderList } from '../io/render.js';
import { renderParcelTimeline, renderTimeline, stateItem } from './view.js';
import type { TimelineFit, TimelineLine } from './view.js';
import type { TimelineEntry } from './timeline.js';
import { entryJson } from './timeline.js';
import type { Snapshot } from './watch.js';

/**
 * What `track --watch` prints. People: the usual view first (one parcel with its timeline, or the
 * state table of several), then each new entry as one more row. Scripts (--json, --output ndjson):
 * one JSON line per entry, those already there first, each naming its parcel in `entry_id`
 * (through --jq when given).
 */
export class WatchPrinter {
  readonly names: CodeNames | undefined;
  private readonly several: boolean;
  /** Terminal columns and widths so far, so later rows line up with earlier ones. */
  private fit: TimelineFit | undefined;
  private headerShown = false;

  constructor(
    private readonly ctx: Context,
    opts: { several: boolean; names: CodeNames | undefined },
  ) {
    this.several = opts.several;
    this.names = opts.names;
  }

  private get json(): boolean {
    return this.ctx.outputFormat() !== 'table';
  }

  async first(snapshots: ReadonlyMap<string, Snapshot>): Promise<void> {
    const { io } = this.ctx;
    const now = await this.ctx.serviceNow();
    if (this.json) {
      await this.jsonLines([...snapshots].map(([id, snapshot]) => ({ id, entries: snapshot.timeline })));
    } else if (this.several) {
      const items = [...snapshots].map(([id, snapshot]) => stateItem(id, snapshot.parcel, snapshot.timeline, { names: this.names, now }));
      await renderList(io, items, { format: 'table', names: this.names, now, view: 'states' });
    } else {
      const [snapshot] = snapshots.values();
      if (snapshot === undefined) return;
      this.fit = await renderParcelTimeline(io, snapshot.parcel, snapshot.timeline, { names: this.names, now, room: true });
      // Piped, the header line is printed even over no entries; on a terminal the first entry brings it.
      this.headerShown = snapshot.timeline.length > 0 || !io.stdoutIsTTY;
    }
  }

  async fresh(batch: readonly { id: string; entries: TimelineEntry[] }[]): Promise<void> {
    if (this.json) {
      await this.jsonLines(batch);
      return;
    }
    const { io } = this.ctx;
    // One parcel's new rows go under its Timeline heading; several parcels' under a heading of their own.
    if (!this.headerShown && this.several) await renderHeading(io, 'New entries', false);
    const lines: TimelineLine[] = batch.flatMap(({ id, entries }) => entries.map((entry) => ({ id, entry })));
    this.fit = await renderTimeline(io, lines, {
      names: this.names,
      now: await this.ctx.serviceNow(),
      header: !this.headerShown,
      withId: this.several,
      fit: this.fit,
      room: true,
    });
    this.headerShown = true;
  }

  private async jsonLines(batch: readonly { id: string; entries: readonly TimelineEntry[] }[]): Promise<void> {
    const lines = batch.flatMap(({ id, entries }) => entries.map((entry) => Object.assign({ entry_id: id }, entryJson(entry), { entry_id: id })));
    await presentList(this.ctx, lines, { format: 'ndjson', now: await this.ctx.serviceNow() });
  }
}
