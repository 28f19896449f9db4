import type { Context } from '../context.js';

/** Where journals and the outbox are kept apart: the profile and its base URL, or the `--sandbox` database. */
export async function journalTarget(ctx: Context): Promise<string> {
  const id = await ctx.targetId();
  // No base URL: api() raises the usage error that says how to set one.
  if (id === undefined) await ctx.api();
  if (ctx.globals.sandbox) return id as string;
  return `${(await ctx.settings()).profile} ${id as string}`;
}
