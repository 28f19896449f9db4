// Temporary: the callers move to io/present/resource.ts once the layout moves land (then this file goes).
import { pageOf } from '../../api/envelope.js';
import type { Context } from '../../context.js';
import { presentPage, presentResource, presentStream } from '../../io/present/resource.js';
import type { ResourceOptions } from '../../io/present/resource.js';

export type ShowOptions = ResourceOptions;

export async function showRecord(ctx: Context, data: unknown, opts: ShowOptions & { afterWrite?: boolean } = {}): Promise<void> {
  await presentResource(ctx, data, opts);
}

export async function showPage(ctx: Context, data: unknown, emptyMessage: string, opts: ShowOptions = {}): Promise<void> {
  await presentPage(ctx, pageOf(data), emptyMessage, opts);
}

export async function showStream(ctx: Context, items: AsyncIterable<unknown>, emptyMessage: string, opts: ShowOptions = {}): Promise<number> {
  return presentStream(ctx, items, emptyMessage, opts);
}
