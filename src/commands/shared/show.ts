import { findItems, nextCursor } from '../../api/envelope.js';
import type { Context } from '../../context.js';
import type { CodeNames } from '../../io/format.js';
import { pickFields } from '../../io/fields.js';
import { renderList, renderRecord } from '../../io/render.js';

/** Code names matter only to people reading tables; scripts get the raw codes without the extra lookup. */
async function namesFor(ctx: Context): Promise<CodeNames | undefined> {
  return ctx.outputFormat() === 'table' ? ctx.codeNames() : undefined;
}

/** One record (a parcel, an overview): a key/value table, or the data itself as JSON. */
export async function showRecord(ctx: Context, data: unknown): Promise<void> {
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
  const fields = ctx.fields();
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
