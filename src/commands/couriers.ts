import { presentPage } from '../io/present/resource.js';
import { pageOf } from '../api/envelope.js';
import type { couriersCommands } from '../definitions/couriers.js';
import { defineCommand } from '../command-kit/types.js';
import { rememberForCompletion } from '../args/couriers.js';

export default defineCommand<typeof couriersCommands.couriers, Record<string, never>>({
  parse: () => ({}),
  async run(_options, ctx) {
    const response = await (await ctx.api()).route('couriers.list', { signal: ctx.signal });
    await Promise.all([presentPage(ctx, pageOf(response.data), 'No couriers registered.'), rememberForCompletion(ctx, response.data)]);
  },
});
