import { randomUUID } from 'node:crypto';
import { parcelCreateSchema, parcelListQuerySchema, parcelPatchSchema } from '../../schemas/parcel.js';
import { PARCEL_FIELDS } from '../../schemas/parcel-fields.js';
import { assertSameWalk, decodeCursor, encodeCursor } from '../cursor.js';
import { SandboxError, validationError } from '../errors.js';
import { createFields, crossFieldIssues, sandboxCreateSchema, sandboxPatchSchema, stored } from '../rules.js';
import type { ParcelFields } from '../store/types.js';
import { check, etagOf, findParcel, intParam, parcelChanged, parcelResult, requireObject, toApiParcel } from './common.js';
import type { HandlerContext } from './types.js';
import { defineHandler } from './types.js';

export const listParcels = defineHandler({
  query: ['limit', 'cursor', 'courier', 'status'],
  validate(ctx) {
    const raw = {
      limit: intParam(ctx, 'limit'),
      cursor: ctx.query.get('cursor'),
      courier: ctx.query.get('courier'),
      status: intParam(ctx, 'status'),
    };
    const cursor = raw.cursor === undefined ? undefined : decodeCursor(raw.cursor, ctx.deps.repo.cursorKey(), ctx.org.id);
    const q = check(parcelListQuerySchema, raw);
    if (cursor) assertSameWalk(cursor, { courier: q.courier, status: q.status });
    if (q.courier !== undefined && !ctx.org.courierCodes.has(q.courier)) {
      throw validationError([{ path: 'courier', message: 'is not a registered courier code of your organisation' }]);
    }
    return { ...q, decoded: cursor };
  },
  run(ctx, q) {
    const repo = ctx.deps.repo;
    const highWater = q.decoded?.highWater ?? repo.maxParcelSeq(ctx.org.id);
    const rows = repo.listParcels(ctx.org.id, {
      after: q.decoded?.after ?? 0,
      upTo: highWater,
      limit: q.limit + 1,
      courier: q.courier,
      status: q.status,
    });
    const more = rows.length > q.limit;
    const page = more ? rows.slice(0, q.limit) : rows;
    const last = page[page.length - 1];
    const next = more && last ? encodeCursor({ highWater, after: last.seq, courier: q.courier, status: q.status }, repo.cursorKey(), ctx.org.id) : null;
    return { status: 200, data: { parcels: page.map(toApiParcel), next_cursor: next } };
  },
});

function checkCross(ctx: HandlerContext, fields: ParcelFields): void {
  const issues = crossFieldIssues(fields, ctx.org.courierCodes);
  if (issues.length > 0) throw validationError(issues);
}

export const createParcel = defineHandler({
  validate(ctx) {
    const body = requireObject(ctx.body);
    check(parcelCreateSchema, body); // the spec's rules first
    check(sandboxCreateSchema, body); // then the sandbox's stricter ones
    const fields = createFields(body);
    checkCross(ctx, fields);
    return fields;
  },
  run(ctx, fields) {
    const parcel = ctx.deps.repo.createParcel(ctx.org.id, randomUUID(), fields, ctx.now);
    ctx.deps.parcelCreated(parcel, ctx.now * 1000);
    const result = parcelResult(parcel, 201);
    return { ...result, headers: { ...result.headers, Location: `/deliveries/v1/parcels/${parcel.entry_id}` } };
  },
});

export const getParcel = defineHandler({
  validate: () => undefined,
  run: (ctx) => parcelResult(findParcel(ctx), 200),
});

/** If-Match values: a list of entity tags separated by commas (strong comparison, exact text). */
function ifMatchList(header: string | string[] | undefined): string[] | undefined {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header.join(',') : header;
  const tags = value.split(',').map((t) => t.trim()).filter((t) => t !== '');
  return tags.length === 0 ? undefined : tags;
}

export const patchParcel = defineHandler({
  validate(ctx) {
    const ifMatch = ifMatchList(ctx.headers['if-match']);
    if (ifMatch === undefined) {
      throw new SandboxError(412, 'precondition_required', 'send If-Match with the parcel\'s latest ETag (read it with GET)', 'If-Match');
    }
    const body = requireObject(ctx.body);
    check(parcelPatchSchema, body);
    check(sandboxPatchSchema, body);
    return { ifMatch, body };
  },
  run(ctx, { ifMatch, body }) {
    const parcel = findParcel(ctx);
    const current = etagOf(parcel, toApiParcel(parcel));
    if (!ifMatch.includes(current)) {
      throw new SandboxError(412, 'precondition_failed', `If-Match does not match the parcel's current ETag ${current}; read it again`, 'If-Match');
    }
    const changed: Record<string, unknown> = {};
    for (const f of PARCEL_FIELDS) {
      if (!(f.name in body) || (f.required && typeof body[f.name] !== 'string')) continue;
      changed[f.name] = stored(f, body[f.name]);
    }
    const next = { ...parcel, ...changed } as ParcelFields;
    checkCross(ctx, next);
    const updated = ctx.deps.repo.updateParcel(parcel, next, ctx.now);
    if (!updated) throw parcelChanged();
    return parcelResult(updated, 200);
  },
});
