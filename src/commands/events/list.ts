import { listEvents } from '../../api/history.js';
import { defineCommand } from '../../command-kit/types.js';
import { resolveParcelId } from '../../args/parcel-id.js';
import { showPage } from '../shared/show.js';
import type { eventsCommands } from '../../definitions/events.js';

export default defineCommand<typeof eventsCommands.eventsList, { id: string }>({
  parse: async ({ args }, ctx) => ({ id: await resolveParcelId(args[0] ?? '', ctx) }),
  async run({ id }, ctx) {
    const response = await listEvents(await ctx.api(), id, ctx.signal);
    await showPage(ctx, response.data, 'No status events for this parcel.', { view: 'events', parentId: id });
  },
});
