import { longFlag } from '../definitions/definition.js';
import { GLOBAL_FLAGS } from '../definitions/globals.js';
import type { Context } from '../context.js';

/** Where journals and the outbox are kept apart: the profile and its base URL, or the `--sandbox` database. */
export async function journalTarget(ctx: Context): Promise<string> {
  const id = await ctx.targetId();
  // No base URL: api() raises the usage error that says how to set one.
  if (id === undefined) await ctx.api();
  if (ctx.globals.sandbox) return id as string;
  return `${(await ctx.settings()).profile} ${id as string}`;
}

/** The same target as the user knows it, for `parcels batches`: `--sandbox`, or the profile and its base URL (no user or password). */
export async function journalWhere(ctx: Context): Promise<string> {
  if (ctx.globals.sandbox) return longFlag(GLOBAL_FLAGS.sandbox);
  const settings = await ctx.settings();
  let url = settings.baseUrl ?? '';
  try {
    const parsed = new URL(url);
    url = `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
  } catch {
    // Not a URL: api() refused it before a run gets here.
  }
  return `${settings.profile} ${url}`;
}
