import { badRequest } from './errors.js';

/**
 * List cursor: base64url of `{"v":1,"h":<high-water seq>,"a":<last seq>}`. The high-water mark is
 * the newest parcel sequence when the walk began; pages return parcels with `a < seq <= h` in
 * ascending creation order, so a walk sees each parcel that existed at its start exactly once and
 * never sees parcels created during it.
 */
export interface Cursor {
  highWater: number;
  after: number;
}

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify({ v: 1, h: c.highWater, a: c.after })).toString('base64url');
}

export function decodeCursor(raw: string): Cursor {
  const invalid = () => badRequest('invalid_cursor', 'cursor is not a value returned as next_cursor; pass it unchanged', 'cursor');
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(raw)) throw invalid();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (typeof value !== 'object' || value === null) throw invalid();
  const { v, h, a } = value as Record<string, unknown>;
  if (v !== 1 || !Number.isSafeInteger(h) || !Number.isSafeInteger(a)) throw invalid();
  const highWater = h as number;
  const after = a as number;
  if (after < 0 || highWater < after) throw invalid();
  return { highWater, after };
}
