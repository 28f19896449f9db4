/**
 * What `track` hands the presenter (io/present/timeline.ts): each read as a timeline result, in
 * the forms the presenter chooses from — JSON for scripts, rows for csv, a drawing for people.
 */
import type { Look, Timeline, TimelineUpdate } from '../io/present/timeline.js';
import { renderHeading, renderList } from '../io/render.js';
import { renderParcelTimeline, renderTimeline, stateItem } from './view.js';
import type { TimelineFit, TimelineLine } from './view.js';
import type { TimelineEntry } from '../schemas/timeline.js';
import { entryJson, parcelState } from '../schemas/timeline.js';
import type { Snapshot } from './watch.js';

/** One parcel and its timeline. */
export function timelineOf(snapshot: Snapshot): Timeline {
  const entries = snapshot.timeline.map(entryJson);
  return {
    parcels: 'one',
    record: { parcel: snapshot.parcel, timeline: entries },
    entries,
    draw: async (io, look) => {
      await renderParcelTimeline(io, snapshot.parcel, snapshot.timeline, look);
    },
  };
}

/** Where each of several parcels stands. */
export function statesOf(ids: readonly string[], snapshots: readonly Snapshot[]): Timeline {
  return {
    parcels: 'several',
    states: ids.map((id, i) => parcelState(id, snapshots[i]?.parcel, snapshots[i]?.timeline ?? [])),
    rows: (look: Look) => ids.map((id, i) => stateItem(id, snapshots[i]?.parcel, snapshots[i]?.timeline ?? [], look)),
  };
}

/**
 * A watch's updates. People: the usual view first (one parcel with its timeline, or the state
 * table of several), then each new entry as one more row. Scripts: one JSON line per entry, those
 * already there first, each naming its parcel in `entry_id`.
 */
export class WatchUpdates {
  /** Terminal columns and widths so far, so later rows line up with earlier ones. */
  private fit: TimelineFit | undefined;
  private headerShown = false;

  constructor(private readonly several: boolean) {}

  first(snapshots: ReadonlyMap<string, Snapshot>): TimelineUpdate {
    return {
      lines: jsonLines([...snapshots].map(([id, snapshot]) => ({ id, entries: snapshot.timeline }))),
      draw: async (io, look) => {
        if (this.several) {
          const items = [...snapshots].map(([id, snapshot]) => stateItem(id, snapshot.parcel, snapshot.timeline, look));
          await renderList(io, items, { format: look.format, names: look.names, now: look.now, shortId: look.shortId, view: 'states' });
          return;
        }
        const [snapshot] = snapshots.values();
        if (snapshot === undefined) return;
        this.fit = await renderParcelTimeline(io, snapshot.parcel, snapshot.timeline, { ...look, room: true });
        // Piped, the header line is printed even over no entries; on a terminal the first entry brings it.
        this.headerShown = snapshot.timeline.length > 0 || !io.stdoutIsTTY;
      },
    };
  }

  fresh(batch: readonly { id: string; entries: TimelineEntry[] }[]): TimelineUpdate {
    return {
      lines: jsonLines(batch),
      draw: async (io, look) => {
        // One parcel's new rows go under its Timeline heading; several parcels' under a heading of their own.
        if (!this.headerShown && this.several) await renderHeading(io, 'New entries', false);
        const lines: TimelineLine[] = batch.flatMap(({ id, entries }) => entries.map((entry) => ({ id, entry })));
        this.fit = await renderTimeline(io, lines, { ...look, header: !this.headerShown, withId: this.several, fit: this.fit, room: true });
        this.headerShown = true;
      },
    };
  }
}

function jsonLines(batch: readonly { id: string; entries: readonly TimelineEntry[] }[]): unknown[] {
  return batch.flatMap(({ id, entries }) => entries.map((entry) => Object.assign({ entry_id: id }, entryJson(entry), { entry_id: id })));
}
