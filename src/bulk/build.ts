import type { ZodMiniType } from 'zod/mini';
import { routePath } from '../api/routes.js';
import { deliveryAttemptSchema, statusEventSchema } from '../schemas/history.js';
import { parcelCreateSchema } from '../schemas/parcel.js';
import { parcelIdSchema } from '../schemas/parcel-id.js';
import { STATE_FIELDS, stateDefaultNote } from '../schemas/required-state.js';
import type { Clock } from '../schemas/time.js';
import { validate } from '../schemas/validate.js';
import type { InputLine } from './input.js';
import { lineKey } from './keys.js';
import type { BulkKind, SendRequest } from './types.js';

/** Turns one input line into the exact request to send, or the reason it cannot be sent. */

export interface BuildContext {
  kind: BulkKind;
  /** The batch identity the keys derive from. */
  batch: string;
  /** Values given on the command line, already typed (e.g. `{ status: 2, occurred_at: 1763884800 }`); they win over a line's. */
  overrides: Readonly<Record<string, unknown>>;
  /** Values a line may leave out (e.g. the observation time: now), already typed; a line's own win over them. */
  defaults?: Readonly<Record<string, unknown>>;
  now: Clock;
}

export type BuiltLine =
  | { ok: true; line: number; request: SendRequest; parcel: string | undefined; ignored: number }
  | { ok: false; line: number; field: string; message: string };

/** The body fields of each history kind (spec 2.3, 2.4); everything else on a line is ignored and counted. */
const EVENT_FIELDS = ['status', 'occurred_at'];
const ATTEMPT_FIELDS = ['time_attempt', 'outcome', 'reason', 'delivered', 'attempt_no'];
/** CSV has no nesting: a delivered-address field comes as its own column and goes into `delivered`. */
const DELIVERED_PREFIX = 'delivered_';

const encoder = new TextEncoder();

export function buildLine(input: InputLine, ctx: BuildContext): BuiltLine {
  const line = input.line;
  if (input.record === undefined) return { ok: false, line, field: '', message: input.problem ?? 'is not a record' };
  if (ctx.kind === 'create') {
    const body = { ...input.record, ...ctx.overrides };
    const checked = validate(parcelCreateSchema, body);
    if (!checked.ok) return invalid(line, checked.issues);
    // A JSON line with nothing to override is sent as the exact bytes given.
    const bytes = Object.keys(ctx.overrides).length === 0 && input.json ? input.bytes : encoder.encode(JSON.stringify(body));
    return { ok: true, line, parcel: undefined, ignored: 0, request: request(ctx, line, input.bytes, routePath('parcels.create'), bytes) };
  }
  const id = input.record.entry_id;
  const idCheck = validate(parcelIdSchema, id);
  if (id === undefined) return { ok: false, line, field: 'entry_id', message: "is required (the parcel's id)" };
  if (!idCheck.ok) return invalid(line, idCheck.issues.map((issue) => ({ ...issue, path: 'entry_id' })));
  const { body: lineBody, ignored } = historyBody(ctx.kind, input.record);
  const body = { ...ctx.defaults, ...lineBody, ...ctx.overrides };
  const schema: ZodMiniType = ctx.kind === 'events' ? statusEventSchema(ctx.now) : deliveryAttemptSchema(ctx.now);
  const checked = validate(schema, body);
  if (!checked.ok) return invalid(line, checked.issues);
  const state = STATE_FIELDS[ctx.kind];
  if (body[state.field] === undefined) {
    return { ok: false, line, field: state.field, message: `is required: give a ${state.field} on the line or ${state.flag} (${stateDefaultNote(ctx.kind)})` };
  }
  const path = routePath(ctx.kind === 'events' ? 'events.create' : 'attempts.create', { id: id as string });
  return { ok: true, line, parcel: id as string, ignored, request: request(ctx, line, input.bytes, path, encoder.encode(JSON.stringify(body))) };
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
  return { body, ignored };
}

function request(ctx: BuildContext, line: number, lineBytes: Uint8Array, path: string, body: Uint8Array): SendRequest {
  return { method: 'POST', path, body, idempotencyKey: lineKey(ctx.batch, line, lineBytes) };
}

function invalid(line: number, issues: ReadonlyArray<{ path: string; message: string }>): BuiltLine {
  const first = issues[0] ?? { path: '', message: 'is invalid' };
  return { ok: false, line, field: first.path, message: first.message };
}
