import { findItems, nextCursor } from '../../api/envelope.js';
import type { Context } from '../../context.js';
import type { CodeNames } from '../../io/format.js';
import { pickFields } from '../../io/fields.js';
import { assertKnownFields } from '../../io/list.js';
import { forPeople, presentList, presentRecord } from '../../io/present.js';
import { idOf } from '../../io/views/ids.js';
import type { ViewName } from '../../io/views/resources.js';
import { refuseListsInRows, renderHeading, renderLine, renderList, renderMessage } from '../../io/render.js';
import { isRecord } from '../../schemas/record.js';
import { KNOWN_IDS_MAX } from '../../config/known-ids.js';
import { rememberParcelIds } from '../../args/parcel-id.js';

/**
 * Parcel ids shown are remembered for this target, so a unique prefix of one can be typed next
 * (`parcels get 3f1c9a2b`). Other resources' ids are not parcel ids.
 */
async function rememberParcels(ctx: Context, items: readonly unknown[], opts: ShowOptions): Promise<void> {
  // A child record (an event, an attempt) names the parcel written to or read.
  if (opts.view !== 'parcels') return rememberParcelIds(ctx, opts.parentId === undefined ? [] : [opts.parentId]);
  await rememberParcelIds(ctx, items.map((item) => idOf(item, opts)).filter((id): id is string => id !== undefined));
}

export interface ShowOptions {
  /** The resource shown, for its default view on a terminal and the id `--quiet` prints. */
  view?: ViewName;
  /** The parcel a child list or record belongs to: not repeated in its rows, not taken for its id. */
  parentId?: string;
}
import { sameCommand } from '../../io/hint.js';

/** Code names matter only to people reading tables; scripts get the raw codes without the extra lookup. */
async function namesFor(ctx: Context): Promise<CodeNames | undefined> {
  return forPeople(ctx) ? ctx.codeNames() : undefined;
}

/**
 * One record (a parcel, an overview): a key/value table, or the data itself as JSON. `--quiet`
 * prints only its id. After a write (`afterWrite`) an unknown --fields name is a warning, not an
 * error: the change is made and exit 2 would claim nothing was sent.
 */
export async function showRecord(ctx: Context, data: unknown, opts: ShowOptions & { afterWrite?: boolean } = {}): Promise<void> {
  await rememberParcels(ctx, [data], opts);
  if (ctx.globals.quiet) {
    const id = idOf(data, opts);
    if (id !== undefined) await renderLine(ctx.io, id);
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
export async function showPage(
  ctx: Context,
  data: unknown,
  emptyMessage: string,
  opts: ShowOptions = {},
): Promise<void> {
  const format = ctx.outputFormat();
  const items = findItems(data);
  if (items === undefined) {
    await showRecord(ctx, data, opts);
    return;
  }
  // JSON (and --jq, which implies it) keeps the record whole; --quiet wins over --jq, as for a record.
  if (!looksLikePage(data) && (ctx.globals.quiet || format !== 'json')) {
    // A record, not a list: --quiet prints its id (an overview has none), not the ids of one of its lists.
    if (ctx.globals.quiet) {
      await showRecord(ctx, data, opts);
      return;
    }
    if (forPeople(ctx)) {
      await showSections(ctx, data as Record<string, unknown>);
      return;
    }
    refuseListsInRows(data, format);
  }
  const fields = ctx.fields();
  assertKnownFields(items, fields);
  await rememberParcels(ctx, items, opts);
  if (ctx.globals.quiet) {
    for (const item of items) {
      const id = idOf(item, opts);
      if (id !== undefined) await renderLine(ctx.io, id);
    }
    return;
  }
  if (format === 'json') {
    await presentRecord(ctx, narrowItems(data, items, fields), { format, now: await ctx.serviceNow() });
    return;
  }
  await renderList(ctx.io, items, {
    format,
    fields,
    names: await namesFor(ctx),
    now: await ctx.serviceNow(),
    view: opts.view,
    parentId: opts.parentId,
    nextCursor: nextCursor(data) ?? null,
    // The hint repeats the user's own command (filters, --sandbox, --profile) with the next cursor.
    nextCommand: sameCommand(ctx.commandLine, { drop: ['--cursor', '--all'] }),
    emptyMessage,
  });
}

/** Streams the items of many pages (`--all`): JSON as one incrementally written array. */
export async function showStream(ctx: Context, items: AsyncIterable<unknown>, emptyMessage: string, opts: ShowOptions = {}): Promise<number> {
  const recent: unknown[] = [];
  const checked = latest(checkedFirst(items, ctx.fields()), recent);
  let count: number;
  if (ctx.globals.quiet) {
    count = 0;
    for await (const item of checked) {
      const id = idOf(item, opts);
      if (id !== undefined) await renderLine(ctx.io, id);
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
  await rememberParcels(ctx, recent.slice(-KNOWN_IDS_MAX), opts);
  return count;
}

/** The items, keeping the latest ones (at most about twice the known-ids bound) in `into`. */
async function* latest(items: AsyncIterable<unknown>, into: unknown[]): AsyncGenerator<unknown> {
  for await (const item of items) {
    into.push(item);
    if (into.length >= 2 * KNOWN_IDS_MAX) into.splice(0, into.length - KNOWN_IDS_MAX);
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

interface Sections {
  /** Lists, by dotted path. */
  lists: [string, unknown[]][];
  /** Everything else, by dotted path. */
  rest: Record<string, unknown>;
}

function splitSections(data: Record<string, unknown>, prefix = '', into: Sections = { lists: [], rest: {} }): Sections {
  for (const [key, value] of Object.entries(data)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (Array.isArray(value)) into.lists.push([path, value]);
    else if (isRecord(value) && Object.keys(value).length > 0) splitSections(value, path, into);
    else into.rest[path] = value;
  }
  return into;
}

/** Counts by status first (what an operator looks for in an overview), then the lists as sent. */
function usefulness([path]: [string, unknown[]]): number {
  return /(^|[._])by_status$/.test(path) ? 0 : 1;
}


/**
 * A record holding several lists (reference codes, an overview) as a person reads it: each list
 * as its own table under a heading, wherever it is nested, the most useful first; then
 * the remaining values as key/value lines.
 */
export async function showSections(ctx: Context, data: Record<string, unknown>): Promise<void> {
  const names = await namesFor(ctx);
  const { lists, rest } = splitSections(data);
  assertKnownFields(
    lists.flatMap(([, items]) => items),
    ctx.fields(),
  );
  let first = true;
  for (const [path, items] of [...lists].sort((a, b) => usefulness(a) - usefulness(b))) {
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
