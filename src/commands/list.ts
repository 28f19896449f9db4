import { listParcels, walkParcels } from '../api/parcels.js';
import type { ApiClient } from '../api/http.js';
import { findItems, nextCursor, pageOf } from '../api/envelope.js';
import { UsageError } from '../errors.js';
import type { ParcelListQuery } from '../schemas/parcel.js';
import { LIST_LIMIT_MAX, LIST_LIMIT_MIN, parcelListQuerySchema } from '../schemas/parcel.js';
import { validate } from '../schemas/validate.js';
import { defineCommand } from '../command-kit/types.js';
import { defined, issuesToUsageError } from '../args/flags.js';
import { intFlag } from '../args/int.js';
import { untilAborted } from '../api/abortable.js';
import type { listCommands } from '../definitions/list.js';
import { statusFlag } from '../args/codes.js';
import { presentPage, presentStream } from '../io/present/resource.js';
import { sameCommand } from '../hint/hint.js';
import { withCourierCodes } from '../args/couriers.js';
import type { Context } from '../context.js';
import type { CommandFlag } from '../schemas/flag-name.js';

export interface ListOptions {
  /** Only the parameters the user gave: the service applies its own defaults to the rest. */
  query: Partial<ParcelListQuery>;
  all: boolean;
  /** With --all: stop after this many parcels. */
  max: number | undefined;
}

const LIST_FLAGS: Readonly<Record<string, CommandFlag<typeof listCommands.list>>> = { limit: '--limit', cursor: '--cursor', courier: '--courier', status: '--status' };

export default defineCommand<typeof listCommands.list, ListOptions>({
  async parse({ flags }, ctx) {
    const { limit, status } = flags;
    const query = defined({
      limit: limit === undefined ? undefined : intFlag(limit, '--limit', { min: LIST_LIMIT_MIN, max: LIST_LIMIT_MAX }),
      cursor: flags.cursor,
      courier: flags.courier,
      status: status === undefined ? undefined : await statusFlag(status, '--status', ctx),
    });
    const checked = validate(parcelListQuerySchema, query);
    if (!checked.ok) throw issuesToUsageError(checked.issues, LIST_FLAGS, 'the query');
    if (flags.max !== undefined && !flags.all) {
      throw new UsageError('--max needs --all (--limit is the size of one page)', '--max', `add --all: \`${sameCommand(ctx.commandLine, { add: ['--all'] })}\``);
    }
    return { query, all: flags.all, max: flags.max };
  },

  async run(options, ctx) {
    try {
      await showParcels(options, ctx);
    } catch (error) {
      // An unknown --courier: the refusal lists the organisation's couriers.
      throw options.query.courier === undefined ? error : await withCourierCodes(error, ctx, options.query.courier);
    }
  },
});

async function showParcels({ query, all, max }: ListOptions, ctx: Context): Promise<void> {
  const client = await ctx.api();
  if (!all) {
    const page = await listParcels(client, query, ctx.signal);
    await presentPage(ctx, pageOf(page.data), 'No parcels found.', { view: 'parcels' });
    return;
  }
  const items = max === undefined ? itemsOf(walkParcels(client, query, ctx.signal)) : firstItems(client, query, max, ctx.signal);
  await presentStream(ctx, untilAborted(items, ctx.signal), 'No parcels found.', { view: 'parcels' });
}

async function* itemsOf(pages: AsyncIterable<{ data: unknown }>): AsyncGenerator<unknown> {
  for await (const page of pages) yield* findItems(page.data) ?? [];
}

/**
 * At most `max` parcels: pages of --limit (else the largest page the spec allows), the last one
 * asking only for what is still missing.
 */
async function* firstItems(client: ApiClient, query: Partial<ParcelListQuery>, max: number, signal: AbortSignal): AsyncGenerator<unknown> {
  const pageSize = query.limit ?? LIST_LIMIT_MAX;
  const seen = new Set<string>();
  let cursor = query.cursor;
  let remaining = max;
  while (remaining > 0) {
    const page = await listParcels(client, { ...query, cursor, limit: Math.min(pageSize, remaining) }, signal);
    const items = (findItems(page.data) ?? []).slice(0, remaining);
    yield* items;
    remaining -= items.length;
    const next = nextCursor(page.data);
    if (next === undefined || items.length === 0) return;
    if (seen.has(next)) throw new Error(`the service returned the cursor "${next}" twice; stopping to avoid a loop`);
    seen.add(next);
    cursor = next;
  }
}
