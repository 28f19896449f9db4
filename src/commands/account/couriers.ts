import { getCouriers } from '../../api/account.js';
import { findItems } from '../../api/envelope.js';
import type { Context } from '../../context.js';
import { isRecord } from '../../schemas/record.js';
import { showPage } from '../shared/show.js';
import type { accountCommands } from '../definitions/account.js';
import { defineCommand } from '../types.js';
import { COURIERS_CACHE_NAME, readCachedCouriers } from '../../config/completion-values.js';
import { writeCached } from '../../config/cache.js';

export default defineCommand<typeof accountCommands.couriers, Record<string, never>>({
  parse: () => ({}),
  async run(_options, ctx) {
    const response = await getCouriers(await ctx.api(), ctx.signal);
    await Promise.all([showPage(ctx, response.data, 'No couriers registered.'), rememberForCompletion(ctx, response.data)]);
  },
});

/** Keeps the codes for shell completion of --courier, per target; a failed write costs only that. */
async function rememberForCompletion(ctx: Context, data: unknown): Promise<void> {
  const couriers = (findItems(data) ?? []).flatMap((item) =>
    isRecord(item) && typeof item.code === 'string' ? [{ code: item.code, ...(typeof item.name === 'string' ? { name: item.name } : {}) }] : [],
  );
  const target = await ctx.cacheTarget();
  if (target === undefined) return;
  // Unchanged couriers are not written again: most runs then cost one small read.
  if (JSON.stringify(readCachedCouriers(ctx.env, target)) === JSON.stringify(couriers)) return;
  await writeCached(ctx.env, target, COURIERS_CACHE_NAME, couriers).catch(() => undefined);
}
