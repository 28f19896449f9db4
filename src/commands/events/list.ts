import { defineCommand } from '../../command-kit/types.js';
import { resolveParcelId } from '../../args/parcel-id.js';
import { presentPage } from '../../io/present/resource.js';
import { pageOf } from '../../api/envelope.js';
import type { eventsCommands } from '../../definitions/events.js';

export default defineCommand<typeof eventsCommands.eventsList, { id: string }>({
  parse: async ({ args }, ctx) => ({ id: await resolveParcelId(args[0] ?? '', ctx) }),
  async run({ id }, ctx) {
    const response = await (await ctx.api()).route('events.list', { params: { id }, signal: ctx.signal });
    await presentPage(ctx, pageOf(response.data), 'No status events for this parcel.', { view: 'events', parentId: id });
  },
});
