import { getCouriers } from '../api/account.js';
import { showPage } from './shared/show.js';
import type { couriersCommands } from '../definitions/couriers.js';
import { defineCommand } from '../command-kit/types.js';
import { rememberForCompletion } from '../args/couriers.js';

export default defineCommand<typeof couriersCommands.couriers, Record<string, never>>({
  parse: () => ({}),
  async run(_options, ctx) {
    const response = await getCouriers(await ctx.api(), ctx.signal);
    await Promise.all([showPage(ctx, response.data, 'No couriers registered.'), rememberForCompletion(ctx, response.data)]);
  },
});
