import { listParcels, walkParcels } from '../../api/parcels.js';
import { findItems } from '../../api/envelope.js';
import type { ParcelListQuery } from '../../schemas/parcel.js';
import { LIST_LIMIT_MAX, LIST_LIMIT_MIN, parcelListQuerySchema } from '../../schemas/parcel.js';
import { validate } from '../../schemas/validate.js';
import { defineCommand } from '../types.js';
import { defined, issuesToUsageError } from '../shared/flags.js';
import { intFlag } from '../shared/int.js';
import { untilAborted } from '../shared/abortable.js';
import type { definitions } from '../table.js';
import { statusFlag } from '../shared/codes.js';
import { showPage, showStream } from '../shared/show.js';
import { withCourierCodes } from '../shared/couriers.js';
import type { Context } from '../../context.js';

export interface ListOptions {
  /** Only the parameters the user gave: the service applies its own defaults to the rest. */
  query: Partial<ParcelListQuery>;
  all: boolean;
}

const LIST_FLAGS = { limit: '--limit', cursor: '--cursor', courier: '--courier', status: '--status' };

export default defineCommand<typeof definitions.list, ListOptions>({
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
    return { query, all: flags.all };
  },

  async run(options, ctx) {
    try {
      await showParcels(options, ctx);
    } catch (error) {
      // An unknown --courier: the refusal lists the organisation's couriers.
      throw options.query.courier === undefined ? error : await withCourierCodes(error, ctx);
    }
  },
});

async function showParcels({ query, all }: ListOptions, ctx: Context): Promise<void> {
  const client = await ctx.api();
  if (!all) {
    const page = await listParcels(client, query, ctx.signal);
    await showPage(ctx, page.data, 'No parcels found.');
    return;
  }
  await showStream(ctx, untilAborted(itemsOf(walkParcels(client, query, ctx.signal)), ctx.signal), 'No parcels found.');
}

async function* itemsOf(pages: AsyncIterable<{ data: unknown }>): AsyncGenerator<unknown> {
  for await (const page of pages) yield* findItems(page.data) ?? [];
}

