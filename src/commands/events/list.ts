import { listEvents } from '../../api/history.js';
import { defineCommand } from '../types.js';
import { resolveParcelId } from '../shared/parcel-id.js';
import { showPage } from '../shared/show.js';
import type { parcelsCommands } from '../../definitions/parcels.js';

export default defineCommand<typeof parcelsCommands.eventsList, { id: string }>({
  parse: async ({ args }, ctx) => ({ id: await resolveParcelId(args[0] ?? '', ctx) }),
  async run({ id }, ctx) {
    const response = await listEvents(await ctx.api(), id, ctx.signal);
    await showPage(ctx, response.data, 'No status events for this parcel.', { view: 'events', parentId: id });
  },
});
