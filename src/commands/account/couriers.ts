import { getCouriers } from '../../api/account.js';
import { findItems } from '../../api/envelope.js';
import type { Context } from '../../context.js';
import { showPage } from '../shared/show.js';
import type { definitions } from '../table.js';
import { defineCommand } from '../types.js';

export default defineCommand<typeof definitions.couriers, Record<string, never>>({
  parse: () => ({}),
  async run(_options, ctx) {
    const response = await getCouriers(await ctx.api(), ctx.signal);
    await rememberForCompletion(ctx, response.data);
    await showPage(ctx, response.data, 'No couriers registered.');
  },
});

/** Keeps the codes for shell completion of --courier, per profile and target; a failed write costs only that. */
async function rememberForCompletion(ctx: Context, data: unknown): Promise<void> {
  const couriers = (findItems(data) ?? []).flatMap((item) => {
    const { code, name } = (typeof item === 'object' && item !== null ? item : {}) as { code?: unknown; name?: unknown };
    return typeof code === 'string' ? [{ code, ...(typeof name === 'string' ? { name } : {}) }] : [];
  });
  const settings = await ctx.target();
  const { SANDBOX_TARGET, couriersCacheName } = await import('../../config/completion-values.js');
  const target = ctx.globals.sandbox ? SANDBOX_TARGET : settings.baseUrl;
  if (target === undefined) return;
  const { writeCached } = await import('../../config/cache.js');
  await writeCached(ctx.env, settings.profile, couriersCacheName(target), couriers).catch(() => undefined);
}
