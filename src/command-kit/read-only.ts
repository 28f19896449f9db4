import type { RouteName } from '../schemas/routes.js';
import type { CommandDefinition } from '../definitions/definition.js';
import { defineCommand } from './types.js';
import { presentPage } from '../io/present/resource.js';
import { pageOf } from '../api/envelope.js';
import type { ResourceOptions } from '../io/present/resource.js';

/** A command with no arguments that reads one route and shows its data (a list or a record). */
export function readOnlyCommand(
  route: RouteName,
  emptyMessage: string,
  show: ResourceOptions = {},
) {
  return defineCommand<CommandDefinition<Record<string, never>>, Record<string, never>>({
    parse: () => ({}),
    async run(_options, ctx) {
      const response = await (await ctx.api()).route(route, { signal: ctx.signal });
      await presentPage(ctx, pageOf(response.data), emptyMessage, show);
    },
  });
}
