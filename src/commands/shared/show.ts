import { findItems, nextCursor } from '../../api/envelope.js';
import type { Context } from '../../context.js';
import type { CodeNames } from '../../io/format.js';
import { pickFields } from '../../io/fields.js';
import { renderHeading, renderList, renderRecord } from '../../io/render.js';
import { renderJq, renderJqStream } from '../../io/jq.js';

/** Code names matter only to people reading tables; scripts get the raw codes without the extra lookup. */
async function namesFor(ctx: Context): Promise<CodeNames | undefined> {
  return ctx.outputFormat() === 'table' ? ctx.codeNames() : undefined;
}

/** One record (a parcel, an overview): a key/value table, or the data itself as JSON. */
export async function showRecord(ctx: Context, data: unknown): Promise<void> {
  const jq = await ctx.jq();
  if (jq !== undefined) {
    await renderJq(ctx.io, jq, pickFields(data, ctx.fields()));
    return;
  }
  await renderRecord(ctx.io, data, {
    format: ctx.outputFormat(),
    fields: ctx.fields(),
    names: await namesFor(ctx),
    now: ctx.now(),
  });
}

/**
 * One page of a list. JSON keeps the page as the service sent it (with next_cursor), narrowing
 * only the items to --fields; the other formats print the items found inside `data`.
 */
export async function showPage(ctx: Context, data: unknown, emptyMessage: string): Promise<void> {
  const format = ctx.outputFormat();
  const items = findItems(data);
  if (items === undefined) {
    await showRecord(ctx, data);
    return;
  }
  if (format === 'table' && !looksLikePage(data)) {
    await showSections(ctx, data as Record<string, unknown>);
    return;
  }
  const fields = ctx.fields();
  const jq = await ctx.jq();
  if (jq !== undefined) {
    await renderJq(ctx.io, jq, narrowItems(data, items, fields));
    return;
  }
  if (format === 'json') {
    await renderRecord(ctx.io, narrowItems(data, items, fields), { format, now: ctx.now() });
    return;
  }
  await renderList(ctx.io, items, {
    format,
    fields,
    names: await namesFor(ctx),
    now: ctx.now(),
    nextCursor: nextCursor(data) ?? null,
    emptyMessage,
  });
}

/** Streams the items of many pages (`--all`): JSON as one incrementally written array. */
export async function showStream(ctx: Context, items: AsyncIterable<unknown>, emptyMessage: string): Promise<number> {
  const jq = await ctx.jq();
  if (jq !== undefined) {
    const fields = ctx.fields();
    return (await renderJqStream(ctx.io, jq, mapItems(items, (item) => pickFields(item, fields)))).count;
  }
  const { count } = await renderList(ctx.io, items, {
    format: ctx.outputFormat(),
    fields: ctx.fields(),
    names: await namesFor(ctx),
    now: ctx.now(),
    stream: true,
    emptyMessage,
  });
  return count;
}

async function* mapItems(items: AsyncIterable<unknown>, map: (item: unknown) => unknown): AsyncGenerator<unknown> {
  for await (const item of items) yield map(item);
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
 * under its own heading, whatever the service calls it, then the remaining fields as key/value.
 */
export async function showSections(ctx: Context, data: Record<string, unknown>): Promise<void> {
  const names = await namesFor(ctx);
  const rest: Record<string, unknown> = {};
  let first = true;
  for (const [key, value] of Object.entries(data)) {
    if (!Array.isArray(value)) {
      rest[key] = value;
      continue;
    }
    await renderHeading(ctx.io, key, first);
    first = false;
    await renderList(ctx.io, value, { format: 'table', fields: ctx.fields(), names, now: ctx.now(), emptyMessage: `No ${key}.` });
  }
  if (Object.keys(rest).length > 0) {
    await renderHeading(ctx.io, 'summary', first);
    await showRecord(ctx, rest);
  }
}
