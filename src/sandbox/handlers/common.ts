import type * as z from 'zod/mini';
import { STATUS_NAMES } from '../../schemas/codes.js';
import { PARCEL_FIELDS } from '../../schemas/parcel-fields.js';
import { validate } from '../../schemas/validate.js';
import { SandboxError, badRequest, validationError } from '../errors.js';
import { sha1Base64url } from '../hash.js';
import type { ParcelFields, ParcelRecord } from '../store/types.js';
import type { HandlerContext, HandlerResult } from './types.js';

/** Names of all six parcel statuses; 4 and 5 are the sandbox's choice (the spec leaves them open). */
export const PARCEL_STATUS_NAMES: Readonly<Record<number, string>> = {
  ...STATUS_NAMES,
  4: 'delivered',
  5: 'not_delivered',
};

export const STATUS_DELIVERED = 4;
export const STATUS_NOT_DELIVERED = 5;

/** Runs a schema; a failure becomes a 422 naming the first field. */
export function check<S extends z.ZodMiniType>(schema: S, input: unknown): z.infer<S> {
  const result = validate(schema, input);
  if (!result.ok) throw validationError(result.issues);
  return result.value;
}

/** The body must be a JSON object (not an array, string, number or null): 422 otherwise. */
export function requireObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new SandboxError(422, 'validation_failed', 'request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

const INTEGER = /^-?[0-9]{1,15}$/;

/** An integer query parameter: not an integer → 400; range checks are the schema's (422). */
export function intParam(ctx: HandlerContext, name: string): number | undefined {
  const raw = ctx.query.get(name);
  if (raw === undefined) return undefined;
  if (!INTEGER.test(raw)) throw badRequest('invalid_parameter', `query parameter ${name} must be an integer`, name);
  return Number(raw);
}

/** The caller's parcel by path id, or 404 (also for another organisation's parcel). */
export function findParcel(ctx: HandlerContext): ParcelRecord {
  const id = ctx.params.id as string;
  const parcel = ctx.deps.repo.getParcel(ctx.org.id, id);
  if (!parcel) throw new SandboxError(404, 'parcel_not_found', `no parcel with entry_id ${id}`, 'id');
  return parcel;
}

/** A parcel as the API shows it: its fields plus identity, status and times. */
export type ApiParcel = ParcelFields & {
  entry_id: string;
  status: number;
  created_at: number;
  updated_at: number;
};

/** Identity, then the fields in the table's order (the ETag hashes this JSON), then status and times. */
export function toApiParcel(p: ParcelRecord): ApiParcel {
  const api: Record<string, unknown> = { entry_id: p.entry_id };
  for (const f of PARCEL_FIELDS) api[f.name] = p[f.name];
  api.status = p.status;
  api.created_at = p.created_at;
  api.updated_at = p.updated_at;
  return api as ApiParcel;
}

/** `"v<version>-<hash>"`: changes whenever the representation changes (every change bumps version). */
export function etagOf(p: ParcelRecord, api: ApiParcel): string {
  const hash = sha1Base64url(JSON.stringify(api)).slice(0, 12);
  return `"v${p.version}-${hash}"`;
}

/** A record's API form and ETag, kept per (immutable) record object so a cached parcel is not re-hashed. */
const shown = new WeakMap<ParcelRecord, { api: ApiParcel; etag: string }>();

/** The parcel as a handler result with its ETag header. */
export function parcelResult(p: ParcelRecord, status: 200 | 201): HandlerResult {
  let s = shown.get(p);
  if (!s) {
    const api = Object.freeze(toApiParcel(p));
    s = { api, etag: etagOf(p, api) };
    shown.set(p, s);
  }
  return { status, data: s.api, headers: { ETag: s.etag } };
}

/**
 * A conditional write found the parcel changed since it was read. Writes run inside BEGIN
 * IMMEDIATE, so this is a guard, not an expected path; 409 tells the client to read and retry.
 */
export function parcelChanged(): SandboxError {
  return new SandboxError(409, 'parcel_changed', 'the parcel changed while this request ran; read it again and retry');
}

/** YYYY-MM-DD of a Unix-seconds time, UTC. */
export function isoDate(ts: number): string {
  return new Date(ts * 1000).toISOString().slice(0, 10);
}

/** Start of the UTC day of `ts`. */
export function dayStart(ts: number): number {
  return ts - (((ts % 86_400) + 86_400) % 86_400);
}
