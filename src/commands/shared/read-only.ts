import type { ApiClient } from '../../api/http.js';
import { defineCommand } from '../types.js';
import { showPage } from './show.js';

/** A command with no arguments that reads one route and shows its data (a list or a record). */
export function readOnlyCommand(fetch: (client: ApiClient) => Promise<{ data: unknown }>, emptyMessage: string) {
  return defineCommand<Record<string, never>>({
    parse: () => ({}),
    async run(_options, ctx) {
      const response = await fetch(await ctx.api());
      await showPage(ctx, response.data, emptyMessage);
    },
  });
}
