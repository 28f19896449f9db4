import { getCouriers } from '../../api/account.js';
import { findItems } from '../../api/envelope.js';
import type { Context } from '../../context.js';
import { ApiError } from '../../errors.js';
import { isRecord } from '../../schemas/record.js';

/** Whether a refusal is about the courier field (by the field it names, or its message). */
function aboutCourier(error: ApiError): boolean {
  const body = isRecord(error.body) && isRecord(error.body.error) ? error.body.error : {};
  const details = Array.isArray(body.details) ? body.details : [];
  return body.field === 'courier' || details.some((d) => isRecord(d) && d.field === 'courier') || /courier/i.test(error.message);
}

/**
 * A 4xx refusal of a courier code, with the organisation's couriers in its hint (one extra read), so
 * the user sees the valid values. Anything else, or a failed lookup, is returned unchanged.
 */
export async function withCourierCodes(error: unknown, ctx: Context): Promise<unknown> {
  if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500 || error.status === 401 || error.status === 403 || error.hint !== undefined) return error;
  if (!aboutCourier(error)) return error;
  let codes: string[];
  try {
    const response = await getCouriers(await ctx.api(), ctx.signal);
    codes = (findItems(response.data) ?? []).flatMap((c) => (isRecord(c) && typeof c.code === 'string' ? [c.code] : []));
  } catch {
    return error;
  }
  if (codes.length === 0) return error;
  const hinted = new ApiError(error.status, error.code, error.message, error.body, error.retryAfter, `your organisation's couriers: ${codes.join(', ')}`);
  if (error.request !== undefined) hinted.request = error.request;
  if (error.attempt !== undefined) hinted.attempt = error.attempt;
  return hinted;
}
