import type { ZodMiniType } from 'zod/mini';
import { routePath } from '../api/routes.js';
import { deliveryAttemptSchema, statusEventSchema } from '../schemas/history.js';
import { parcelCreateSchema } from '../schemas/parcel.js';
import { parcelIdSchema } from '../schemas/parcel-id.js';
import { STATE_FIELDS, stateDefaultNote } from '../schemas/required-state.js';
import type { Clock } from '../schemas/time.js';
import { validate } from '../schemas/validate.js';
import type { InputLine } from './input.js';
import { canonicalJson, requestDigest } from './keys.js';
import type { BulkKind, SendRequest } from './types.js';
import { normaliseAddress } from '../schemas/address-normalize.js';
import { ATTEMPT_FIELDS, EVENT_FIELDS } from './csv/columns.js';
import type { CodeNames } from '../schemas/codes.js';
import { readServiceCodes, readValues } from './values.js';

/**
 * Turns one input line into the request it asks for (what its key derives from), then into the
 * exact request to send, or the reason it cannot be sent.
 */

export interface BuildContext {
  kind: BulkKind;
  /** Values given on the command line, already typed (e.g. `{ status: 2, occurred_at: 1763884800 }`); they win over a line's. */
  overrides: Readonly<Record<string, unknown>>;
  /** Values a line may leave out (e.g. the observation time: now), already typed; a line's own win over them. Not part of the key. */
  defaults?: Readonly<Record<string, unknown>>;
  /** Overrides not part of the key (a time typed relative to now). */
  unkeyed?: readonly string[];
  now: Clock;
  /** What a relative time written in the input (`now`, `-1h`) counts from: the batch's first run (default: `now`). */
  fileNow?: number;
  /** The service's names for its codes, when the input writes a service or location type name (read once per run: code-names.ts). */
  codeNames?: CodeNames | undefined;
}

/** What a line asks for, before defaults and validation: its digest is the line's identity in the batch. */
export interface LineRequest {
  ok: true;
  line: number;
  path: string;
  /** The line's fields (mapped to the body) with the flags that override it. */
  fields: Record<string, unknown>;
  digest: string;
  parcel: string | undefined;
  ignored: number;
}

export type Invalid = { ok: false; line: number; field: string; message: string };

export type BuiltLine = { ok: true; line: number; request: Omit<SendRequest, 'idempotencyKey'>; parcel: string | undefined; ignored: number } | Invalid;

/** CSV has no nesting: a delivered-address field comes as its own column and goes into `delivered`. */
const DELIVERED_PREFIX = 'delivered_';

const encoder = new TextEncoder();

/** The request a line asks for (the same for a line re-saved with other quoting, spacing or column order). */
export function lineRequest(input: InputLine, ctx: BuildContext): LineRequest | Invalid {
  const line = input.line;
  if (input.record === undefined) return { ok: false, line, field: '', message: input.problem ?? 'is not a record' };
  if (ctx.kind === 'create') {
    const path = routePath('parcels.create');
    const codes = readServiceCodes(normaliseAddress({ ...input.record, ...ctx.overrides }, 'country', 'postal_code'), ctx.codeNames);
    if (!codes.ok) return { ...codes, line };
    const fields = codes.fields;
    return { ok: true, line, path, fields, digest: requestDigest('POST', path, fields), parcel: undefined, ignored: 0 };
  }
  const id = input.record.entry_id;
  if (id === undefined) return { ok: false, line, field: 'entry_id', message: "is required (the parcel's id)" };
  const idCheck = validate(parcelIdSchema, id);
  if (!idCheck.ok) return invalid(line, idCheck.issues.map((issue) => ({ ...issue, path: 'entry_id' })));
  const { body, ignored } = historyBody(ctx.kind, input.record);
  const path = routePath(ctx.kind === 'events' ? 'events.create' : 'attempts.create', { id: id as string });
  const codes = readServiceCodes({ ...body, ...ctx.overrides }, ctx.codeNames);
  if (!codes.ok) return { ...codes, line };
  const fields = codes.fields;
  return { ok: true, line, path, fields, digest: requestDigest('POST', path, keyed(body, fields, ctx.unkeyed)), parcel: id as string, ignored };
}

/** The fields a key derives from: an unkeyed override counts as the line's own value (or its absence). */
function keyed(line: Record<string, unknown>, fields: Record<string, unknown>, unkeyed: readonly string[] = []): Record<string, unknown> {
  if (unkeyed.length === 0) return fields;
  const copy = { ...fields };
  for (const name of unkeyed) copy[name] = line[name];
  return copy;
}

/** The request to send: defaults filled in, checked against the spec's rules, as canonical JSON bytes. */
export function buildLine(request: LineRequest, ctx: BuildContext): BuiltLine {
  const values = readValues(request.fields, ctx.fileNow ?? ctx.now());
  if (!values.ok) return { ok: false, line: request.line, field: values.field, message: values.message };
  const body = ctx.kind === 'create' ? values.fields : { ...ctx.defaults, ...values.fields };
  const schema: ZodMiniType = ctx.kind === 'create' ? parcelCreateSchema : ctx.kind === 'events' ? statusEventSchema(ctx.now) : deliveryAttemptSchema(ctx.now);
  const checked = validate(schema, body);
  if (!checked.ok) return invalid(request.line, checked.issues);
  if (ctx.kind !== 'create') {
    const state = STATE_FIELDS[ctx.kind];
    if (body[state.field] === undefined) {
      return { ok: false, line: request.line, field: state.field, message: `is required: give a ${state.field} on the line or ${state.flag} (${stateDefaultNote(ctx.kind)})` };
    }
  }
  const bytes = encoder.encode(canonicalJson(body));
  return { ok: true, line: request.line, parcel: request.parcel, ignored: request.ignored, request: { method: 'POST', path: request.path, body: bytes } };
}

function historyBody(kind: 'events' | 'attempts', record: Record<string, unknown>): { body: Record<string, unknown>; ignored: number } {
  const fields = kind === 'events' ? EVENT_FIELDS : ATTEMPT_FIELDS;
  const body: Record<string, unknown> = {};
  let ignored = 0;
  for (const [name, value] of Object.entries(record)) {
    if (name === 'entry_id') continue;
    if (fields.includes(name)) body[name] = value;
    else if (kind === 'attempts' && name.startsWith(DELIVERED_PREFIX)) {
      const delivered = (body.delivered ??= {}) as Record<string, unknown>;
      delivered[name] = value;
    } else ignored++;
  }
  if (typeof body.delivered === 'object' && body.delivered !== null) body.delivered = normaliseAddress(body.delivered as Record<string, unknown>, 'delivered_country', 'delivered_postal_code');
  return { body, ignored };
}

function invalid(line: number, issues: ReadonlyArray<{ path: string; message: string }>): Invalid {
  const first = issues[0] ?? { path: '', message: 'is invalid' };
  return { ok: false, line, field: first.path, message: first.message };
}
