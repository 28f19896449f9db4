import { listParcels, walkParcels } from '../../api/parcels.js';
import { findItems } from '../../api/envelope.js';
import type { ParcelListQuery } from '../../schemas/parcel.js';
import { LIST_LIMIT_MAX, LIST_LIMIT_MIN, parcelListQuerySchema } from '../../schemas/parcel.js';
import { validate } from '../../schemas/validate.js';
import { defineCommand } from '../types.js';
import { defined, intFlag, issuesToUsageError, stringFlags } from '../shared/flags.js';
import { statusFlag } from '../shared/codes.js';
import { showPage, showStream } from '../shared/show.js';

export interface ListOptions {
  /** Only the parameters the user gave: the service applies its own defaults to the rest. */
  query: Partial<ParcelListQuery>;
  all: boolean;
}

const LIST_FLAGS = { limit: '--limit', cursor: '--cursor', courier: '--courier', status: '--status' };

export default defineCommand<ListOptions>({
  async parse({ flags }, ctx) {
    const str = stringFlags(flags);
    const limit = str('limit');
    const status = str('status');
    const query = defined({
      limit: limit === undefined ? undefined : intFlag(limit, '--limit', { min: LIST_LIMIT_MIN, max: LIST_LIMIT_MAX }),
      cursor: str('cursor'),
      courier: str('courier'),
      status: status === undefined ? undefined : await statusFlag(status, '--status', ctx),
    });
    const checked = validate(parcelListQuerySchema, query);
    if (!checked.ok) throw issuesToUsageError(checked.issues, LIST_FLAGS, 'the query');
    return { query, all: flags.all === true };
  },

  async run({ query, all }, ctx) {
    const client = await ctx.api();
    if (!all) {
      const page = await listParcels(client, query);
      await showPage(ctx, page.data, 'No parcels found.');
      return;
    }
    await showStream(ctx, itemsOf(walkParcels(client, query)), 'No parcels found.');
  },
});

async function* itemsOf(pages: AsyncIterable<{ data: unknown }>): AsyncGenerator<unknown> {
  for await (const page of pages) yield* findItems(page.data) ?? [];
}

