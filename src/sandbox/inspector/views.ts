/**
 * What the inspector shows that the admin route does not: every organisation's parcels, one parcel
 * with its history and scenario run, the scenario catalogue with steps, usage per organisation.
 * Read straight from the repository, in the API's own shapes.
 */
import type { InspectedParcel as ParcelView, Overview, ParcelDetail, ParcelPage, ScenarioCatalogueView, UsageReport } from '../../schemas/inspector.js';
import { UUID_PATTERN } from '../../schemas/parcel-id.js';
import type { AdminDeps } from '../admin.js';
import { SandboxError, badRequest } from '../errors.js';
import { usageDays } from '../handlers/account.js';
import { toApiParcel } from '../handlers/common.js';
import { EVENTS_RETURNED } from '../handlers/history.js';
import { REFERENCE } from '../handlers/reference.js';
import { BUILTIN_SCENARIOS } from '../scenarios/builtin.js';
import type { InspectedParcel, InspectQuery } from '../store/types.js';

export interface ViewDeps extends AdminDeps {
  /** Writes buffered usage rows, so usage is current. */
  flushUsage: () => void;
  /** Data time as the API sees it, Unix seconds. */
  now: () => number;
}

/** Parcels per page at most (`limit`). */
const MAX_LIMIT = 200;
const DEFAULT_LIMIT = 100;

function wholeNumber(query: URLSearchParams, name: string, min: number, max: number): number | undefined {
  const text = query.get(name);
  if (text === null || text === '') return undefined;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < min || n > max) throw badRequest('invalid_parameter', `query parameter ${name} must be a whole number from ${min} to ${max}`, name);
  return n;
}

function listQuery(query: URLSearchParams): InspectQuery {
  const prefix = (query.get('q') ?? '').trim().toLowerCase();
  if (!/^[0-9a-f-]{0,36}$/.test(prefix)) throw badRequest('invalid_parameter', 'query parameter q must be the start of an entry_id (hex digits and hyphens)', 'q');
  return {
    org: query.get('org') || undefined,
    courier: query.get('courier') || undefined,
    status: wholeNumber(query, 'status', 0, 5),
    idPrefix: prefix,
    before: wholeNumber(query, 'before', 1, Number.MAX_SAFE_INTEGER),
    limit: wholeNumber(query, 'limit', 1, MAX_LIMIT) ?? DEFAULT_LIMIT,
  };
}

const listed = (p: InspectedParcel): ParcelView => ({ ...toApiParcel(p), org_id: p.org_id, scenario: p.scenario });

/** Organisations and their couriers (the filters), the code names, and the test clock. */
export function overview(d: ViewDeps): Overview {
  return {
    organisations: d.repo.loadOrganisations().map((o) => ({ id: o.id, name: o.name, verified: o.verified, couriers: o.couriers })),
    reference: REFERENCE,
    clock: d.testClock.status(),
  };
}

/** A page of parcels, newest first; `next_before` continues the walk (null on the last page). */
export function parcels(d: ViewDeps, query: URLSearchParams): ParcelPage {
  const q = listQuery(query);
  const rows = d.repo.inspectParcels({ ...q, limit: q.limit + 1 });
  const page = rows.slice(0, q.limit);
  return { parcels: page.map(listed), next_before: rows.length > q.limit ? (page.at(-1)?.seq ?? null) : null };
}

/** One parcel of any organisation: its fields, events and attempts (as the API lists them) and its scenario run. */
export function parcel(d: ViewDeps, id: string): ParcelDetail {
  const found = UUID_PATTERN.test(id) ? d.repo.getParcelAnyOrg(id.toLowerCase()) : undefined;
  if (found === undefined) throw new SandboxError(404, 'parcel_not_found', `no parcel with entry_id ${id}`, 'id');
  return {
    parcel: { ...toApiParcel(found), org_id: found.org_id },
    events: d.repo.listEvents(found, EVENTS_RETURNED),
    attempts: d.repo.listAttempts(found),
    scenario: d.scenarios.view(found) ?? null,
  };
}

/** Every scenario with its steps as written, built-in ones marked. */
export function scenarios(d: ViewDeps): ScenarioCatalogueView {
  return { scenarios: d.scenarios.definitions().map((s) => ({ ...s, builtin: BUILTIN_SCENARIOS.has(s.name) })) };
}

/** Requests and errors per organisation and UTC day, as the usage route reports them. */
export function usage(d: ViewDeps): UsageReport {
  d.flushUsage();
  const now = d.now();
  return { organisations: d.repo.loadOrganisations().map((o) => ({ id: o.id, name: o.name, days: usageDays(d.repo, o.id, now) })) };
}
