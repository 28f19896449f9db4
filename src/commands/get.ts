import { getParcel } from '../api/parcels.js';
import { defineCommand } from '../command-kit/types.js';
import { resolveParcelId } from '../args/parcel-id.js';
import type { getCommands } from '../definitions/get.js';
import { showRecord } from './shared/show.js';

export interface GetOptions {
  id: string;
}

export default defineCommand<typeof getCommands.get, GetOptions>({
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
