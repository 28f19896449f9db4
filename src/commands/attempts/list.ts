import { listAttempts } from '../../api/history.js';
import { defineCommand } from '../../command-kit/types.js';
import { resolveParcelId } from '../../args/parcel-id.js';
import { showPage } from '../shared/show.js';
import type { attemptsCommands } from '../../definitions/attempts.js';

export default defineCommand<typeof attemptsCommands.attemptsList, { id: string }>({
  parse: async ({ args }, ctx) => ({ id: await resolveParcelId(args[0] ?? '', ctx) }),
  async run({ id }, ctx) {
    const response = await listAttempts(await ctx.api(), id, ctx.signal);
    await showPage(ctx, response.data, 'No delivery attempts for this parcel.', { view: 'attempts', parentId: id });
  },
});
