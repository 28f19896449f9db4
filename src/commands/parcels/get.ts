import { getParcel } from '../../api/parcels.js';
import { defineCommand } from '../types.js';
import { resolveParcelId } from '../shared/parcel-id.js';
import type { parcelsCommands } from '../../definitions/parcels.js';
import { showRecord } from '../shared/show.js';

export interface GetOptions {
  id: string;
}

export default defineCommand<typeof parcelsCommands.get, GetOptions>({
  async parse({ args }, ctx) {
    return { id: await resolveParcelId(args[0] ?? '', ctx) };
  },

  async run({ id }, ctx) {
    const response = await getParcel(await ctx.api(), id, ctx.signal);
    const etags = await ctx.etags();
    if (response.etag !== undefined) await etags.set(id, response.etag);
    else await etags.delete(id);
    await showRecord(ctx, response.data, { view: 'parcels' });
  },
});
