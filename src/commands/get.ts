import { defineCommand } from '../command-kit/types.js';
import { resolveParcelId } from '../args/parcel-id.js';
import type { getCommands } from '../definitions/get.js';
import { presentResource } from '../io/present/resource.js';

export interface GetOptions {
  id: string;
}

export default defineCommand<typeof getCommands.get, GetOptions>({
  async parse({ args }, ctx) {
    return { id: await resolveParcelId(args[0] ?? '', ctx) };
  },

  async run({ id }, ctx) {
    const response = await (await ctx.api()).route('parcels.get', { params: { id }, signal: ctx.signal });
    const etags = await ctx.etags();
    if (response.etag !== undefined) await etags.set(id, response.etag);
    else await etags.delete(id);
    await presentResource(ctx, response.data, { view: 'parcels' });
  },
});
