import type { ApiClient } from '../api/http.js';
import type { CommandDefinition } from '../definitions/definition.js';
import { defineCommand } from './types.js';
import { showPage } from '../commands/shared/show.js';
import type { ShowOptions } from '../commands/shared/show.js';

/** A command with no arguments that reads one route and shows its data (a list or a record). */
export function readOnlyCommand(
  fetch: (client: ApiClient, signal: AbortSignal) => Promise<{ data: unknown }>,
  emptyMessage: string,
  show: ShowOptions = {},
) {
  return defineCommand<CommandDefinition<Record<string, never>>, Record<string, never>>({
    parse: () => ({}),
    async run(_options, ctx) {
      const response = await fetch(await ctx.api(), ctx.signal);
      await showPage(ctx, response.data, emptyMessage, show);
    },
  });
}
