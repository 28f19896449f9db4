import { defineCommand } from '../../command-kit/types.js';
import { resolveParcelId } from '../../args/parcel-id.js';
import { presentPage } from '../../io/present/resource.js';
import { pageOf } from '../../api/envelope.js';
import type { attemptsCommands } from '../../definitions/attempts.js';

export default defineCommand<typeof attemptsCommands.attemptsList, { id: string }>({
  parse: async ({ args }, ctx) => ({ id: await resolveParcelId(args[0] ?? '', ctx) }),
  async run({ id }, ctx) {
    const response = await (await ctx.api()).route('attempts.list', { params: { id }, signal: ctx.signal });
    await presentPage(ctx, pageOf(response.data), 'No delivery attempts for this parcel.', { view: 'attempts', parentId: id });
  },
});
