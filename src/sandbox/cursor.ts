import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { badRequest } from './errors.js';

/**
 * List cursor: a walk's position, sealed with AES-256-GCM under the database's cursor key and bound
 * to the organisation (authenticated data), so it reveals nothing (not even how many parcels exist)
 * and another organisation's cursor fails to open (400). Inside: the high-water sequence when the
 * walk began, the last sequence returned, and the walk's filters: pages return parcels with
 * `after < seq <= highWater`, so a walk sees each parcel that existed at its start exactly once.
 */
export interface Cursor {
  highWater: number;
  after: number;
  courier: string | undefined;
  status: number | undefined;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

export function encodeCursor(c: Cursor, key: Buffer, orgId: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(orgId));
  const plain = JSON.stringify({ h: c.highWater, a: c.after, c: c.courier ?? null, s: c.status ?? null });
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
}

const invalid = () => badRequest('invalid_cursor', 'cursor is not a value this organisation received as next_cursor; pass it unchanged', 'cursor');

/** Opens a cursor of `orgId`; a malformed, altered or other organisation's cursor is a 400. */
export function decodeCursor(raw: string, key: Buffer, orgId: string): Cursor {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(raw)) throw invalid();
  const bytes = Buffer.from(raw, 'base64url');
  if (bytes.length <= IV_BYTES + TAG_BYTES) throw invalid();
  let value: unknown;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(orgId));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    const plain = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]);
    value = JSON.parse(plain.toString('utf8'));
  } catch {
    throw invalid();
  }
  const { h, a, c, s } = value as { h: number; a: number; c: string | null; s: number | null };
  return { highWater: h, after: a, courier: c ?? undefined, status: s ?? undefined };
}

/** A cursor continues the walk it came from: other filters are refused (400), not silently applied. */
export function assertSameWalk(cursor: Cursor, filters: { courier: string | undefined; status: number | undefined }): void {
  if (cursor.courier !== filters.courier || cursor.status !== filters.status) {
    const show = (f: { courier: string | undefined; status: number | undefined }) => {
      const given = [f.courier === undefined ? undefined : `courier=${f.courier}`, f.status === undefined ? undefined : `status=${f.status}`].filter(Boolean);
      return given.length === 0 ? 'without filters' : `filtered by ${given.join('&')}`;
    };
    throw badRequest(
      'cursor_mismatch',
      `this cursor belongs to a walk ${show(cursor)}, not to one ${show(filters)}; repeat that walk's filters, or start a new walk without a cursor`,
      'cursor',
    );
  }
}
