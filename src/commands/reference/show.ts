import { getReference } from '../../api/reference.js';
import { renderHeading, renderList } from '../../io/render.js';
import { defineCommand } from '../types.js';
import { showRecord } from '../shared/show.js';

/**
 * The reference codes. As a table, each list in the answer (statuses, outcomes, reasons, …) gets
 * its own heading and table, whatever the service calls them; other formats print `data` as is.
 */
export default defineCommand<Record<string, never>>({
  parse: () => ({}),
  async run(_options, ctx) {
    const { data } = await getReference(await ctx.api());
    if (ctx.outputFormat() !== 'table' || typeof data !== 'object' || data === null || Array.isArray(data)) {
      await showRecord(ctx, data);
      return;
    }
    let first = true;
    const rest: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(data)) {
      if (!Array.isArray(value)) {
        rest[key] = value;
        continue;
      }
      await renderHeading(ctx.io, key, first);
      first = false;
      await renderList(ctx.io, value, { format: 'table', fields: ctx.fields(), now: ctx.now(), emptyMessage: `No ${key}.` });
    }
    if (Object.keys(rest).length > 0) {
      if (!first) await renderHeading(ctx.io, 'other', false);
      await showRecord(ctx, rest);
    }
  },
});
