/**
 * The timeline kind (`track`): one parcel and its timeline, several parcels' states, or a watch's
 * stream of timeline updates. Scripts read JSON (one record, or NDJSON lines), csv reads rows, and
 * people see what the feature that knows the entries draws (src/track/results.ts; io knows no parcel),
 * given the code names and the service's time, which the presenter looks up only for people.
 */
import type { CodeNames } from '../format.js';
import { forPeople, listAs, recordAs } from '../present.js';
import type { PresentContext } from '../present.js';
import { renderList, renderMessage } from '../render.js';
import type { IO } from '../streams.js';
import type { ResultKind } from './kinds.js';
import type { OutputFormat } from '../output-format.js';
import { terminalShortIds } from '../short-ids.js';
import type { ShortId } from '../short-ids.js';

const NO_FIELDS = '--fields does not apply to track; use --json for the parcel and its timeline, or --jq to pick values';

/** A timeline read once: every format. */
export const TIMELINE: ResultKind = { noFields: NO_FIELDS };
/** A watch: its updates print as table rows or NDJSON lines, never csv (a header cannot stand over rows still to come). */
export const TIMELINE_WATCH: ResultKind = { noFields: NO_FIELDS, refuses: { csv: '--watch prints a table or NDJSON lines, not csv' } };

/** What a person's view is drawn with. */
export interface Look {
  names: CodeNames | undefined;
  /** Unix seconds, on the service's clock (for ages). */
  now: number;
  /** The user's format: `table` or `wide` for a drawing, `csv` or `table` for rows. */
  format: OutputFormat;
  /** A terminal's default table (not `-o wide`, not piped): short ids, compact times, code names alone (io/format.ts). */
  compact: boolean;
  /** How parcel ids are shown there (src/io/short-ids.ts); undefined: whole. */
  shortId: ShortId | undefined;
}

/** Draws a person's view on stdout. */
export type Draw = (io: IO, look: Look) => Promise<void>;

export type Timeline =
  /** One parcel: `record` (`{ parcel, timeline }`) for JSON and --jq, its entries as csv rows, drawn for people. */
  | { readonly parcels: 'one'; readonly record: unknown; readonly entries: readonly unknown[]; readonly draw: Draw }
  /** Several parcels: one JSON line each (`states`) for scripts, one row each (`rows`, in the states view) for csv and people. */
  | { readonly parcels: 'several'; readonly states: readonly unknown[]; rows(look: Look): unknown[] };

/** One update of a watch: its entries as JSON lines for scripts, drawn for people (more rows of the same table). */
export interface TimelineUpdate {
  readonly lines: readonly unknown[];
  readonly draw: Draw;
}

export interface TimelineContext extends PresentContext {
  prefixIds(): Promise<readonly string[]>;
  serviceNow(): Promise<number>;
  codeNames(): Promise<CodeNames>;
}

export class TimelinePresenter {
  private readonly people: boolean;
  private readonly namesPromise: Promise<CodeNames | undefined>;
  /** Read at the first view, once the command has remembered the ids it follows (so their prefixes resolve). */
  private shortIds: Promise<ShortId | undefined> | undefined;

  /** Made before the parcels are read: the names people need are looked up meanwhile. */
  constructor(private readonly ctx: TimelineContext) {
    this.people = forPeople(ctx);
    this.namesPromise = this.people ? ctx.codeNames() : Promise.resolve(undefined);
    // Awaited when shown; a read that fails first leaves it unobserved.
    this.namesPromise.catch(() => undefined);
  }

  /** The code names people's views use (undefined for scripts: they read the codes). */
  names(): Promise<CodeNames | undefined> {
    return this.namesPromise;
  }

  private async look(): Promise<Look> {
    const { ctx } = this;
    const format = ctx.outputFormat();
    this.shortIds ??= terminalShortIds(ctx);
    return {
      names: await this.namesPromise,
      now: await ctx.serviceNow(),
      format,
      compact: ctx.io.stdoutIsTTY && format === 'table',
      shortId: await this.shortIds,
    };
  }

  async show(timeline: Timeline): Promise<void> {
    const { ctx } = this;
    const format = ctx.outputFormat();
    const look = (): Promise<Look> => this.look();
    if (timeline.parcels === 'one') {
      // --jq implies json.
      if (format === 'json' || format === 'ndjson') await recordAs(ctx, timeline.record, { now: await ctx.serviceNow() }, () => format);
      else if (format === 'csv') await renderList(ctx.io, timeline.entries, { format, now: await ctx.serviceNow() });
      else await timeline.draw(ctx.io, await look());
      return;
    }
    if (format === 'json' || format === 'ndjson') {
      await listAs(ctx, timeline.states, { now: await ctx.serviceNow() }, () => 'ndjson');
      return;
    }
    const seen = await look();
    const { names, now, shortId } = seen;
    await renderList(ctx.io, timeline.rows(seen), { format, names, now, shortId, view: 'states' });
  }

  /** A watch's update: NDJSON lines (through --jq when given) for scripts, drawn for people. */
  async update(update: TimelineUpdate): Promise<void> {
    if (this.people) await update.draw(this.ctx.io, await this.look());
    else await listAs(this.ctx, update.lines, { now: await this.ctx.serviceNow() }, () => 'ndjson');
  }

  /** How a watch ended, for people (scripts read the NDJSON lines and the exit code); not with --quiet. */
  async end(text: string): Promise<void> {
    if (this.people && !this.ctx.globals.quiet) await renderMessage(this.ctx.io, text);
  }
}
