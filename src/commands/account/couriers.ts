import { getCouriers } from '../../api/account.js';
import { showPage } from '../shared/show.js';
import type { accountCommands } from '../../definitions/account.js';
import { defineCommand } from '../types.js';
import { rememberForCompletion } from '../shared/couriers.js';

export default defineCommand<typeof accountCommands.couriers, Record<string, never>>({
  parse: () => ({}),
  async run(_options, ctx) {
    const response = await getCouriers(await ctx.api(), ctx.signal);
    await Promise.all([showPage(ctx, response.data, 'No couriers registered.'), rememberForCompletion(ctx, response.data)]);
  },
});
