import { findItems } from '../api/envelope.js';
import type { Context } from '../context.js';
import { ApiError } from '../errors.js';
import { isRecord } from '../schemas/record.js';
import { closest } from '../schemas/did-you-mean.js';
import { sameCommand, typedFlag } from '../hint/hint.js';
import { COURIERS_CACHE_NAME, readCachedCouriers } from '../completions/values.js';
import { writeCached } from '../config/cache.js';

/** Whether a refusal is about the courier field: by the field it names, or (naming none) by its message. */
function aboutCourier(error: ApiError): boolean {
  const body = isRecord(error.body) && isRecord(error.body.error) ? error.body.error : {};
  const details = Array.isArray(body.details) ? body.details : [];
  if (body.field === 'courier' || details.some((d) => isRecord(d) && d.field === 'courier')) return true;
  return body.field === undefined && details.length === 0 && /courier/i.test(error.message);
}

/**
 * A 4xx refusal of a courier code, with the organisation's couriers in its hint (one extra read), so
 * the user sees the valid values. Anything else, or a failed lookup, is returned unchanged.
 */
export async function withCourierCodes(error: unknown, ctx: Context, typed: string): Promise<unknown> {
  if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500 || error.status === 401 || error.status === 403 || error.hint !== undefined) return error;
  if (!aboutCourier(error)) return error;
  let codes: string[];
  try {
    const response = await (await ctx.api()).route('couriers.list', { signal: ctx.signal });
    codes = (await rememberForCompletion(ctx, response.data)).map((c) => c.code);
  } catch {
    return error;
  }
  if (codes.length === 0) return error;
  const suggestion = closest(typed, codes);
  // The service's own message may list them already: then only the closest one is worth adding.
  const known = codes.every((code) => error.message.includes(code)) ? undefined : `your organisation's couriers: ${codes.join(', ')}`;
  const retyped = typedFlag(ctx.commandLine, '--courier') ? `: \`${sameCommand(ctx.commandLine, { drop: ['--courier'], add: ['--courier', suggestion ?? ''] })}\`` : '?';
  const hint = [suggestion === undefined ? undefined : `did you mean ${suggestion}${retyped}`, known].filter((part) => part !== undefined).join('; ');
  if (hint === '') return error;
  const hinted = new ApiError(error.status, error.code, error.message, error.body, error.retryAfter, hint);
  if (error.request !== undefined) hinted.request = error.request;
  if (error.attempt !== undefined) hinted.attempt = error.attempt;
  return hinted;
}

/**
 * Keeps the codes of a couriers answer for shell completion of --courier, per target, and returns
 * them; a failed write costs only that.
 */
export async function rememberForCompletion(ctx: Context, data: unknown): Promise<{ code: string; name?: string }[]> {
  const couriers = (findItems(data) ?? []).flatMap((item) =>
    isRecord(item) && typeof item.code === 'string' ? [{ code: item.code, ...(typeof item.name === 'string' ? { name: item.name } : {}) }] : [],
  );
  const target = await ctx.cacheTarget();
  // Unchanged couriers are not written again: most runs then cost one small read.
  if (target === undefined || JSON.stringify(readCachedCouriers(ctx.env, target)) === JSON.stringify(couriers)) return couriers;
  await writeCached(ctx.env, target, COURIERS_CACHE_NAME, couriers).catch(() => undefined);
  return couriers;
}
