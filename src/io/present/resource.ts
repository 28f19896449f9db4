/**
 * The service's resources (a parcel, a page of a list, `--all`, an overview): the record and list
 * kinds plus what only a service's answer has — the id `--quiet` prints, the parcel ids remembered
 * for prefixes, a page's next-page command, and a record holding several lists shown as sections.
 */
import { isRecord } from '../../schemas/record.js';
import type { CodeNames } from '../format.js';
import { pickFields } from '../fields.js';
import { sameCommand } from '../../hint/hint.js';
import type { CommandLine } from '../../hint/hint.js';
import { assertKnownFields } from '../list.js';
import { forPeople, listAs, presentList, presentRecord, recordAs } from '../present.js';
import type { PresentContext } from '../present.js';
import { refuseListsInRows, renderHeading, renderLine, renderMessage } from '../render.js';
import { idOf } from '../views/ids.js';
import type { ViewName } from '../views/resources.js';
import { splitSections } from './sections.js';
import { terminalShortIds } from '../short-ids.js';
import { noteOf } from '../../schemas/parcel-note.js';
import type { ParcelNote } from '../../schemas/parcel-note.js';

/** Where shown parcel ids are kept for prefixes (src/config/known-ids.ts): the newest `max` of them. */
export interface ShownIds {
  remember(ids: readonly string[], notes?: readonly ParcelNote[]): Promise<void>;
  readonly max: number;
}

/** What the resource kind reads of a command's context (the Context satisfies it). */
export interface ResourceContext extends PresentContext {
  readonly commandLine: CommandLine;
  fields(): string[] | undefined;
  serviceNow(): Promise<number>;
  codeNames(): Promise<CodeNames>;
  knownIds(): Promise<ShownIds>;
  prefixIds(): Promise<readonly string[]>;
}

/** A page of a list as the service sent it, with its list and next cursor found (src/api/envelope.ts `pageOf`). */
export interface Page {
  readonly data: unknown;
  /** The list inside `data`; undefined when it holds none (then it is shown as a record). */
  readonly items: unknown[] | undefined;
  readonly nextCursor: string | undefined;
}

export interface ResourceOptions {
  /** The resource shown, for its default view on a terminal and the id `--quiet` prints. */
  view?: ViewName;
  /** The parcel a child list or record belongs to: not repeated in its rows, not taken for its id. */
  parentId?: string;
}

/**
 * Parcel ids shown are remembered for this target, so a unique prefix of one can be typed next
 * (`parcels get 3f1c9a2b`). Other resources' ids are not parcel ids; a child record (an event, an
 * attempt) names the parcel written to or read.
 */
async function rememberParcels(ctx: ResourceContext, items: readonly unknown[], opts: ResourceOptions): Promise<void> {
  const ids = (opts.view === 'parcels' ? items.map((item) => idOf(item, opts)) : [opts.parentId]).filter((id): id is string => id !== undefined);
  // Shown parcels: their checked status and postcode, for completion to say beside the id.
  const notes = opts.view === 'parcels' ? items.flatMap((item) => {
    const id = idOf(item, opts);
    return id === undefined ? [] : [noteOf(id, item)];
  }) : [];
  if (ids.length > 0) await (await ctx.knownIds()).remember(ids, notes);
}

/** Code names matter only to people reading tables; scripts get the raw codes without the extra lookup. */
async function namesFor(ctx: ResourceContext): Promise<CodeNames | undefined> {
  return forPeople(ctx) ? ctx.codeNames() : undefined;
}

/** `--quiet`: the id of each item, one per line (an item without one prints nothing). */
async function printIds(ctx: ResourceContext, items: Iterable<unknown>, opts: ResourceOptions): Promise<void> {
  for (const item of items) {
    const id = idOf(item, opts);
    if (id !== undefined) await renderLine(ctx.io, id);
  }
}

/**
 * One record (a parcel, an overview): a key/value table, or the data itself as JSON. `--quiet`
 * prints only its id. After a write (`afterWrite`) an unknown --fields name is a warning, not an
 * error: the change is made and exit 2 would claim nothing was sent.
 */
export async function presentResource(ctx: ResourceContext, data: unknown, opts: ResourceOptions & { afterWrite?: boolean } = {}): Promise<void> {
  await rememberParcels(ctx, [data], opts);
  if (ctx.globals.quiet) {
    await printIds(ctx, [data], opts);
    return;
  }
  let fields = ctx.fields();
  if (isRecord(data)) {
    try {
      assertKnownFields([data], fields);
    } catch (error) {
      if (!opts.afterWrite || !(error instanceof Error)) throw error;
      await renderMessage(ctx.io, `${error.message} (showing the whole record)`, 'warn');
      fields = undefined;
    }
  }
  await presentRecord(ctx, data, {
    fields,
    names: await namesFor(ctx),
    now: await ctx.serviceNow(),
    view: opts.view,
  });
}

/**
 * One page of a list. JSON keeps the page as the service sent it (with next_cursor), narrowing
 * only the items to --fields; the other formats print the items found inside `data`. A record
 * holding several lists prints a table per list, and refuses csv/ndjson.
 */
export async function presentPage(ctx: ResourceContext, page: Page, emptyMessage: string, opts: ResourceOptions = {}): Promise<void> {
  const format = ctx.outputFormat();
  const { data, items } = page;
  if (items === undefined) {
    await presentResource(ctx, data, opts);
    return;
  }
  // JSON (and --jq, which implies it) keeps the record whole; --quiet wins over --jq, as for a record.
  if (!looksLikePage(data) && (ctx.globals.quiet || format !== 'json')) {
    // A record, not a list: --quiet prints its id (an overview has none), not the ids of one of its lists.
    if (ctx.globals.quiet) {
      await presentResource(ctx, data, opts);
      return;
    }
    if (forPeople(ctx)) {
      await presentSections(ctx, data as Record<string, unknown>);
      return;
    }
    refuseListsInRows(data, format);
  }
  const fields = ctx.fields();
  assertKnownFields(items, fields);
  await rememberParcels(ctx, items, opts);
  if (ctx.globals.quiet) {
    await printIds(ctx, items, opts);
    return;
  }
  if (format === 'json') {
    await recordAs(ctx, narrowItems(data, items, fields), { now: await ctx.serviceNow() }, () => format);
    return;
  }
  await listAs(
    ctx,
    items,
    {
      fields,
      names: await namesFor(ctx),
      now: await ctx.serviceNow(),
      view: opts.view,
      parentId: opts.parentId,
      // Remembered above, so every prefix shown resolves. A stream (`--all`) shows ids whole: its later ids, unknown yet, could share a prefix.
      shortId: items.some((item) => isRecord(item) && 'entry_id' in item) ? await terminalShortIds(ctx) : undefined,
      nextCursor: page.nextCursor ?? null,
      // The hint repeats the user's own command (filters, --sandbox, --profile) with the next cursor.
      nextCommand: sameCommand(ctx.commandLine, { drop: ['--cursor', '--all'] }),
      emptyMessage,
    },
    () => format,
  );
}

/** The items of many pages (`--all`) as they arrive: JSON as one incrementally written array. */
export async function presentStream(ctx: ResourceContext, items: AsyncIterable<unknown>, emptyMessage: string, opts: ResourceOptions = {}): Promise<number> {
  // Only parcels are remembered, and only the newest of them can stay known.
  const known = opts.view === 'parcels' ? await ctx.knownIds() : undefined;
  const recent: unknown[] = [];
  const checked = latest(checkedFirst(items, ctx.fields()), recent, known?.max ?? 0);
  let count = 0;
  if (ctx.globals.quiet) {
    for await (const item of checked) {
      await printIds(ctx, [item], opts);
      count++;
    }
  } else {
    ({ count } = await presentList(ctx, checked, {
      fields: ctx.fields(),
      names: await namesFor(ctx),
      now: await ctx.serviceNow(),
      view: opts.view,
      stream: true,
      emptyMessage,
    }));
  }
  await rememberParcels(ctx, known === undefined ? [] : recent.slice(-known.max), opts);
  return count;
}

/** The items, keeping the latest `max` of them (at most twice that many at a time) in `into`. */
async function* latest(items: AsyncIterable<unknown>, into: unknown[], max: number): AsyncGenerator<unknown> {
  for await (const item of items) {
    if (max > 0) {
      into.push(item);
      if (into.length >= 2 * max) into.splice(0, into.length - max);
    }
    yield item;
  }
}

/** The items, with --fields checked against the first one before anything is printed. */
async function* checkedFirst(items: AsyncIterable<unknown>, fields: string[] | undefined): AsyncGenerator<unknown> {
  let first = true;
  for await (const item of items) {
    if (first) assertKnownFields([item], fields);
    first = false;
    yield item;
  }
}

function narrowItems(data: unknown, items: unknown[], fields: string[] | undefined): unknown {
  if (fields === undefined || typeof data !== 'object' || data === null || Array.isArray(data)) {
    return Array.isArray(data) && fields ? items.map((item) => pickFields(item, fields)) : data;
  }
  const copy: Record<string, unknown> = { ...(data as Record<string, unknown>) };
  for (const [key, value] of Object.entries(copy)) {
    if (value === items) copy[key] = items.map((item) => pickFields(item, fields));
  }
  return copy;
}

/** One list plus plain values (a cursor, a count): a page. Several lists, or nested records: sections. */
function looksLikePage(data: unknown): boolean {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return true;
  const values = Object.values(data);
  const lists = values.filter((v) => Array.isArray(v)).length;
  const records = values.filter((v) => typeof v === 'object' && v !== null && !Array.isArray(v)).length;
  return lists === 1 && records === 0;
}

/**
 * A record holding several lists (reference codes, an overview) as a person reads it: each list
 * as its own table under a heading, wherever it is nested, the most useful first; then the
 * remaining values as key/value lines.
 */
async function presentSections(ctx: ResourceContext, data: Record<string, unknown>): Promise<void> {
  const names = await namesFor(ctx);
  const { lists, rest } = splitSections(data);
  assertKnownFields(
    lists.flatMap(([, items]) => items),
    ctx.fields(),
  );
  let first = true;
  for (const [path, items] of lists) {
    await renderHeading(ctx.io, path, first);
    first = false;
    await presentList(ctx, items, {
      fields: ctx.fields(),
      names,
      now: await ctx.serviceNow(),
      emptyMessage: `No ${path}.`,
    });
  }
  if (Object.keys(rest).length > 0) {
    await renderHeading(ctx.io, 'summary', first);
    await presentRecord(ctx, rest, { names, now: await ctx.serviceNow() });
  }
}
