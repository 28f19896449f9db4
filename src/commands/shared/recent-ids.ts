import type { Context } from '../../context.js';
import { isRecord } from '../../schemas/record.js';

/** An entry_id as the spec describes it: a UUID. Anything else is not offered for completion. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Remembers the parcel ids a command showed, for shell completion; a failed write costs only that. */
export async function rememberShownIds(ctx: Context, items: readonly unknown[] | undefined): Promise<void> {
  const ids = (items ?? []).flatMap((item) => (isRecord(item) && typeof item.entry_id === 'string' && UUID.test(item.entry_id) ? [item.entry_id] : []));
  const target = ids.length === 0 ? undefined : await ctx.cacheTarget();
  if (target === undefined) return;
  const { appendRecentIds } = await import('../../config/recent-ids.js');
  await appendRecentIds(ctx.env, target, ids).catch(() => undefined);
}
