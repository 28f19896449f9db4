/**
 * The admin route, /_sandbox/v1/…: the test clock, scenario assignment, the request log and faults. It is
 * no part of the API: authenticated with the sandbox's admin token (never a customer key), not
 * counted in usage, not logged, exempt from faults and rate limits.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ADMIN_PROOF_NONCE, ADMIN_PROOF_PATH, adminProof } from '../schemas/admin-proof.js';
import { UUID_PATTERN } from '../schemas/parcel-id.js';
import { parseDuration } from '../schemas/duration.js';
import { logFilterFromQuery } from '../schemas/log-filter.js';
import { matchAdminRoute } from '../schemas/routes.js';
import type { ClockAction, ClockStatus, InspectorLogin, LogPage, ResetAnswer, TenantList, TenantRemoved } from '../schemas/sandbox-admin.js';
import { CLOCK_ACTIONS } from '../schemas/sandbox-admin.js';
import type { KeyLookup } from './auth.js';
import { recognises } from './auth.js';
import { ClientGoneError, readJsonBody } from './body.js';
import type { SandboxResponse } from './envelope.js';
import { dataBody, errorResponse } from './envelope.js';
import { AdminTokenError, SandboxError, badRequest, validationError } from './errors.js';
import { sha256 } from './hash.js';
import type { Faults } from './faults/index.js';
import { faultFailure, faultRoute } from './faults/admin.js';
import { FaultError } from './faults/rules.js';
import type { RequestLog } from './requestlog.js';
import type { ScenarioEngine } from './scenarios/engine.js';
import { UnknownScenarioError } from './scenarios/engine.js';
import type { Repository } from './store/types.js';
import { SeedError } from './seed.js';
import type { TenantApp, TenantTable } from './tenants.js';
import { TenantError } from './tenants.js';
import type { TestClock } from './testclock.js';
import { ClockError } from './testclock.js';

export { ADMIN_PREFIX } from '../schemas/routes.js';
/** The longest a log request may wait for new entries (`wait` query parameter, ms). */
const MAX_LOG_WAIT_MS = 60_000;

export interface AdminDeps {
  repo: Repository;
  testClock: TestClock;
  scenarios: ScenarioEngine;
  log: RequestLog;
  faults: Faults;
  keys: KeyLookup;
  /** The admin token; undefined when the admin route is disabled (non-loopback listener, no explicit token). */
  token: () => string | undefined;
  /** Aborted when the sandbox starts to stop (answers waiting log requests, saying so). */
  closing: AbortSignal;
  /** A fresh one-time login link of the web inspector: its path with the code in the fragment. */
  inspectorLogin: () => InspectorLogin;
  /** The tenants (tenants.ts); undefined in a tenant, which holds none. */
  tenants: TenantTable<TenantApp> | undefined;
  /** Empties the sandbox back to its seed, its test clock back to real time (app.ts). */
  reset: () => ClockStatus;
}

const WWW_AUTHENTICATE = 'Bearer realm="parcels-sandbox-admin"';

/** The admin route (and with it the inspector) is off: a non-loopback listener without an explicit token. */
export function adminDisabled(): SandboxError {
  return new SandboxError(403, 'admin_disabled', 'the admin route is off on a non-loopback listener; start the sandbox with an explicit admin token (PARCELS_SANDBOX_ADMIN_TOKEN or --admin-token-file)');
}

/** A customer API key presented where only the sandbox's own credentials count. */
export function customerKeyRefused(where: string, instead: string): SandboxError {
  return new SandboxError(403, 'customer_key_refused', `a customer API key cannot use the ${where}; ${instead}`);
}

function authorise(req: IncomingMessage, d: AdminDeps): void {
  const token = d.token();
  if (token === undefined) throw adminDisabled();
  const header = req.headers.authorization;
  if (header === undefined || header === '') {
    throw new SandboxError(401, 'missing_credentials', 'send Authorization: Bearer <admin token>', undefined, undefined, { 'WWW-Authenticate': WWW_AUTHENTICATE });
  }
  const presented = /^Bearer +([^\s]+) *$/i.exec(header)?.[1];
  if (presented !== undefined && timingSafeEqual(sha256(presented), sha256(token))) return;
  if (recognises(d.keys, header)) throw customerKeyRefused('admin route', 'send the sandbox admin token');
  throw new SandboxError(401, 'invalid_credentials', 'the admin token is not valid', undefined, undefined, { 'WWW-Authenticate': `${WWW_AUTHENTICATE}, error="invalid_token"` });
}

function object(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new SandboxError(422, 'validation_failed', 'request body must be a JSON object');
  return body as Record<string, unknown>;
}

/** A JSON object body (Content-Type application/json, at most 1 MiB). */
export async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const bytes = await readJsonBody(req);
  try {
    return object(JSON.parse(bytes.toString('utf8')));
  } catch (err) {
    if (err instanceof SandboxError) throw err;
    throw badRequest('invalid_json', `request body is not valid JSON: ${(err as Error).message}`);
  }
}

/** `{"by": "36h"}` or `{"ms": 129600000}`. */
function advanceBy(body: Record<string, unknown>): number {
  if (typeof body.by === 'string') {
    const ms = parseDuration(body.by);
    if (ms !== undefined) return ms;
  } else if (typeof body.ms === 'number' && Number.isSafeInteger(body.ms) && body.ms >= 0) {
    return body.ms;
  }
  throw validationError([{ path: 'by', message: 'must be a duration like "90s", "15m", "36h" or "2d" (or "ms": a whole number of milliseconds)' }]);
}

/** `{"to": "2026-12-01T09:00:00Z"}` or `{"to": 1795856400000}` (epoch ms). */
function setTo(body: Record<string, unknown>): number {
  const to = body.to;
  const ms = typeof to === 'number' ? to : typeof to === 'string' && /^\d{4}-\d\d-\d\dT/.test(to) ? Date.parse(to) : Number.NaN;
  if (!Number.isSafeInteger(ms)) throw validationError([{ path: 'to', message: 'must be an ISO 8601 time with a zone (2026-12-01T09:00:00Z) or epoch milliseconds' }]);
  return ms;
}

function parcelOf(d: AdminDeps, id: string) {
  const parcel = UUID_PATTERN.test(id) ? d.repo.getParcelAnyOrg(id.toLowerCase()) : undefined;
  if (parcel === undefined) throw new SandboxError(404, 'parcel_not_found', `no parcel with entry_id ${id}`, 'id');
  return parcel;
}

function clockAction(action: ClockAction, body: Record<string, unknown>, d: AdminDeps) {
  switch (action) {
    case 'advance':
      return d.testClock.advance(advanceBy(body));
    case 'set':
      return d.testClock.set(setTo(body));
    case 'freeze':
      return d.testClock.freeze(true);
    case 'resume':
      return d.testClock.freeze(false);
    case 'speed': {
      const speed = body.speed;
      if (typeof speed !== 'number') throw validationError([{ path: 'speed', message: 'must be a number above 0' }]);
      return d.testClock.setSpeed(speed);
    }
  }
}

/** Answers an authorised admin request for `path` (under ADMIN_PREFIX); throws what handleAdmin turns into an error answer. */
export async function routeAdmin(req: IncomingMessage, path: string, query: URLSearchParams, d: AdminDeps): Promise<{ status: number; data: unknown }> {
  const method = req.method ?? 'GET';
  const match = matchAdminRoute(method, path);
  const params = match.route === undefined ? {} : match.params;
  switch (match.route?.name) {
    case 'sandbox.clock.get':
      return { status: 200, data: d.testClock.status() };
    case 'sandbox.clock.move': {
      const action = CLOCK_ACTIONS.find((a) => a === params.action);
      if (action === undefined) break;
      return { status: 200, data: clockAction(action, await readBody(req), d) };
    }
    case 'sandbox.scenarios.list':
      return { status: 200, data: { scenarios: d.scenarios.names() } };
    case 'sandbox.scenario.get': {
      const parcel = parcelOf(d, params.id as string);
      const view = d.scenarios.view(parcel);
      if (view === undefined) throw new SandboxError(404, 'scenario_not_found', `parcel ${parcel.entry_id} has no scenario`, 'id');
      return { status: 200, data: view };
    }
    case 'sandbox.scenario.assign': {
      const parcel = parcelOf(d, params.id as string);
      const body = await readBody(req);
      if (typeof body.scenario !== 'string') throw validationError([{ path: 'scenario', message: 'must name a scenario (GET /_sandbox/v1/scenarios lists them)' }]);
      const name = body.scenario;
      const now = d.testClock.status().now_ms;
      d.repo.transaction(() => d.scenarios.assign(parcelOf(d, parcel.entry_id), name, now));
      return { status: 201, data: d.scenarios.view(parcel) };
    }
    case 'sandbox.logs.list':
      return { status: 200, data: await logPage(query, d) };
    case 'sandbox.inspector.login':
      // The page keeps its session on the sandbox's own paths; a tenant's requests are read through its log route.
      if (d.tenants === undefined) throw new SandboxError(404, 'inspector_not_served', 'the web inspector shows the sandbox itself, not a tenant; read a tenant\'s requests with GET /t/<name>/_sandbox/v1/logs (parcels sandbox logs --base-url URL/t/<name>)');
      return { status: 201, data: d.inspectorLogin() };
    case 'sandbox.faults.list':
    case 'sandbox.faults.add':
    case 'sandbox.faults.clear':
    case 'sandbox.fault.remove':
    case 'sandbox.faults.rates':
      return faultRoute(match.route.name, req, params, d.faults, readBody);
    case 'sandbox.reset':
      return { status: 200, data: { clock: d.reset() } satisfies ResetAnswer };
    case 'sandbox.tenants.create':
    case 'sandbox.tenants.list':
    case 'sandbox.tenants.remove':
      return tenantRoute(match.route.name, req, params, d);
    // The proof is asked without credentials (handleAdmin answers it first); anything else is no admin route.
    case 'sandbox.proof':
    case undefined:
      break;
  }
  throw new SandboxError(404, 'route_not_found', `no admin route ${method} ${path}`);
}

/** The tenant routes: only the sandbox that holds the tenants answers them (a tenant holds none). */
async function tenantRoute(name: 'sandbox.tenants.create' | 'sandbox.tenants.list' | 'sandbox.tenants.remove', req: IncomingMessage, params: Record<string, string>, d: AdminDeps): Promise<{ status: number; data: unknown }> {
  const tenants = d.tenants;
  if (tenants === undefined) throw new SandboxError(404, 'route_not_found', 'a tenant holds no tenants of its own: manage tenants on the sandbox itself, at /_sandbox/v1/tenants without /t/<name>');
  if (name === 'sandbox.tenants.list') return { status: 200, data: { tenants: tenants.list() } satisfies TenantList };
  if (name === 'sandbox.tenants.remove') return { status: 200, data: { removed: await tenants.remove(params.name as string) } satisfies TenantRemoved };
  const body = await readBody(req);
  const unknown = Object.keys(body).filter((k) => k !== 'name' && k !== 'seed');
  if (unknown.length > 0) throw validationError(unknown.map((k) => ({ path: k, message: 'is not an allowed field' })));
  if (body.seed !== undefined && (typeof body.seed !== 'object' || body.seed === null || Array.isArray(body.seed))) throw validationError([{ path: 'seed', message: 'must be a seed object (as a seed file holds)' }]);
  return { status: 201, data: tenants.create(body.name, body.seed).tenant };
}

/**
 * `GET /_sandbox/v1/logs?after=&wait=&limit=&bodies=` and the filters (schemas/log-filter.ts):
 * the entries after `after` that pass the filters, waiting up to `wait` ms for one.
 */
async function logPage(query: URLSearchParams, d: AdminDeps): Promise<LogPage> {
  const after = Number(query.get('after') ?? '0');
  const wait = Math.min(Number(query.get('wait') ?? '0'), MAX_LOG_WAIT_MS);
  if (!Number.isSafeInteger(after) || after < 0) throw badRequest('invalid_parameter', 'query parameter after must be a whole number ≥ 0', 'after');
  if (!Number.isSafeInteger(wait) || wait < 0) throw badRequest('invalid_parameter', 'query parameter wait must be whole milliseconds ≥ 0', 'wait');
  const limit = query.has('limit') ? Number(query.get('limit')) : undefined;
  if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 1)) throw badRequest('invalid_parameter', 'query parameter limit must be a whole number ≥ 1', 'limit');
  const parsed = logFilterFromQuery(query);
  if ('invalid' in parsed) throw badRequest('invalid_parameter', parsed.invalid.message, parsed.invalid.param);
  const bodies = query.get('bodies') === 'true' || query.get('bodies') === '1';
  const read = () => d.log.entries(after, bodies, limit, parsed.filter);
  // Waits for an entry that passes the filters: entries that do not only move the wait's start on.
  const until = performance.now() + wait;
  let entries = read();
  for (let seen = after; entries.length === 0 && !d.closing.aborted && performance.now() < until; entries = read()) {
    await d.log.waitFor(seen, until - performance.now(), d.closing);
    seen = d.log.latest();
  }
  // `stopping` tells a follower the sandbox is stopping on purpose: its next request has nobody to answer it.
  return { entries, latest: d.log.latest(), ...(d.closing.aborted ? { stopping: true } : {}) };
}

const TENANT_STATUSES = { invalid_tenant_name: 422, tenant_exists: 409, tenant_not_found: 404, too_many_tenants: 409 } as const;

function tenantFailure(err: TenantError): SandboxError {
  if (err.code === 'invalid_tenant_name') return new SandboxError(422, 'validation_failed', err.message, 'name', [{ field: 'name', message: err.message }]);
  return new SandboxError(TENANT_STATUSES[err.code], err.code, err.message, err.code === 'tenant_not_found' ? 'name' : undefined);
}

/** What a failed admin (or inspector, or health) request answers. */
export function adminFailure(err: unknown): SandboxResponse {
  if (err instanceof SandboxError) return errorResponse(err);
  if (err instanceof ClientGoneError) return errorResponse(badRequest('client_disconnected', err.message));
  if (err instanceof UnknownScenarioError) return errorResponse(new SandboxError(422, 'unknown_scenario', err.message));
  if (err instanceof ClockError) return errorResponse(new SandboxError(422, 'validation_failed', err.message));
  if (err instanceof FaultError) return errorResponse(faultFailure(err));
  if (err instanceof TenantError) return errorResponse(tenantFailure(err));
  if (err instanceof SeedError) return errorResponse(validationError(err.problems.map((p) => ({ path: `seed.${p.field}`, message: p.message }))));
  if (err instanceof AdminTokenError) return errorResponse(validationError([{ path: 'seed', message: 'holds the admin token as a customer key; an admin token must be a secret of its own' }]));
  if (process.env.PARCELS_SANDBOX_DEBUG) console.error(err);
  return errorResponse(new SandboxError(500, 'internal_error', 'internal failure'));
}

/**
 * GET /_sandbox/v1/proof?nonce=…, asked without credentials: the proof that this listener holds the
 * admin token (schemas/admin-proof.ts), over the address and port the request reached it on.
 */
function proof(req: IncomingMessage, query: URLSearchParams, d: AdminDeps): { proof: string } {
  const token = d.token();
  if (token === undefined) throw adminDisabled();
  const nonce = query.get('nonce') ?? '';
  if (!ADMIN_PROOF_NONCE.test(nonce)) throw badRequest('invalid_parameter', 'query parameter nonce must be 16 to 128 base64url characters', 'nonce');
  return { proof: adminProof(token, nonce, req.socket.localAddress ?? '', req.socket.localPort ?? 0) };
}

/** Answers one admin request; never rejects. */
export async function handleAdmin(req: IncomingMessage, d: AdminDeps): Promise<SandboxResponse> {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  try {
    if (path === ADMIN_PROOF_PATH && req.method === 'GET') return { status: 200, headers: { 'Cache-Control': 'no-store' }, body: dataBody(proof(req, new URLSearchParams(q === -1 ? '' : url.slice(q + 1)), d)) };
    authorise(req, d);
    const { status, data } = await routeAdmin(req, path, new URLSearchParams(q === -1 ? '' : url.slice(q + 1)), d);
    return { status, headers: { 'Cache-Control': 'no-store' }, body: dataBody(data) };
  } catch (err) {
    return adminFailure(err);
  }
}
