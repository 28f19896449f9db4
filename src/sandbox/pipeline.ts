/**
 * The request pipeline: route → faults → auth/scope → rate limit → parse → idempotency → validate →
 * handler → envelope. Each step is a small function that either returns what the next step needs
 * or throws a SandboxError, which becomes an error envelope.
 */
import type { IncomingMessage } from 'node:http';
import { idempotencyKeySchema } from '../schemas/headers.js';
import { UUID_PATTERN } from '../schemas/parcel.js';
import type { RouteMatch, RouteSpec } from '../schemas/routes.js';
import { ROUTES } from '../schemas/routes.js';
import { validate } from '../schemas/validate.js';
import type { Caller, KeyRing } from './auth.js';
import type { SandboxClock } from './clock.js';
import type { SandboxResponse } from './envelope.js';
import { dataBody, errorResponse } from './envelope.js';
import { SandboxError, badRequest } from './errors.js';
import type { Faults } from './faults.js';
import type { Deps, HandlerContext, HandlerResult, RouteHandler } from './handlers/types.js';
import type { RateDecision, RateLimiter } from './ratelimit.js';
import type { RateLimitSpec } from './seed.js';
import { sha256 } from './store/sqlite.js';
import type { Repository } from './store/types.js';
import type { UsageRecorder } from './usage.js';

/** Request bodies above this many bytes are refused with 400 (reading stops at the cap). */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Stored idempotent responses are replayed for 24 hours. */
export const IDEMPOTENCY_RETENTION_S = 24 * 60 * 60;

export interface PipelineDeps extends Deps {
  keyRing: KeyRing;
  limiter: RateLimiter;
  faults: Faults;
  usage: UsageRecorder;
  handlers: Record<string, RouteHandler>;
  /** Sandbox-wide limit; an organisation's own limit wins. null: no limit unless the organisation sets one. */
  rateLimit: RateLimitSpec | null;
  /** false: rate limiting is off entirely. */
  rateLimitEnabled: boolean;
}

export interface Outcome {
  response: SandboxResponse;
  /** Destroy the connection instead of answering (drop fault). */
  drop: boolean;
  /** The rate-limit decision for an authenticated request (RateLimit-* headers), if a limit applies. */
  rate: RateDecision | undefined;
  /** Sandbox time (ms) the answer was made at. */
  nowMs: number;
}

interface Routed {
  route: RouteSpec;
  rawParams: Record<string, string>;
  path: string;
  rawQuery: string;
}

/** A route template split into segments; `param[i]` is the parameter name of segment i, if any. */
interface Template {
  route: RouteSpec;
  /** The literal text of each segment (unused for parameter segments). */
  segments: readonly string[];
  param: ReadonlyArray<string | undefined>;
}

/**
 * The spec's route table in table order. Matching gives the same answer as matchRoute (first
 * template that fits with the same method; a `{name}` segment fits any non-empty segment), without
 * splitting the path or building a parameter object for each template tried.
 */
const TEMPLATES: readonly Template[] = ROUTES.map((route) => {
  const segments = route.path.split('/');
  const param = segments.map((t) => (t.startsWith('{') ? t.slice(1, -1) : undefined));
  return { route, segments, param };
});

/** Whether the path's '/'-separated segments fit the template (same count, literals equal, parameters non-empty). */
function fits(t: Template, path: string): boolean {
  const n = t.segments.length;
  let start = 0;
  for (let i = 0; i < n; i++) {
    let end = path.indexOf('/', start);
    if (end === -1) {
      if (i !== n - 1) return false;
      end = path.length;
    } else if (i === n - 1) {
      return false;
    }
    if (t.param[i] === undefined) {
      const lit = t.segments[i] as string;
      if (end - start !== lit.length || !path.startsWith(lit, start)) return false;
    } else if (end === start) {
      return false;
    }
    start = end + 1;
  }
  return true;
}

function findRoute(method: string, path: string): RouteMatch | { route: undefined; pathKnown: boolean } {
  let pathKnown = false;
  for (const t of TEMPLATES) {
    if (!fits(t, path)) continue;
    pathKnown = true;
    if (t.route.method !== method) continue;
    const params: Record<string, string> = {};
    let start = 0;
    for (let i = 0; i < t.segments.length; i++) {
      let end = path.indexOf('/', start);
      if (end === -1) end = path.length;
      const name = t.param[i];
      if (name !== undefined) params[name] = path.slice(start, end);
      start = end + 1;
    }
    return { route: t.route, params };
  }
  return { route: undefined, pathKnown };
}

/** Step 1: match method and path against the spec's route table; unknown → 404. */
export function routeStep(method: string, url: string): Routed {
  if (!url.startsWith('/')) throw new SandboxError(404, 'route_not_found', 'no such route');
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const rawQuery = q === -1 ? '' : url.slice(q + 1);
  const match = findRoute(method, path);
  if (match.route === undefined) {
    const message = match.pathKnown ? `${method} is not supported on ${path}` : `no route ${path}`;
    throw new SandboxError(404, 'route_not_found', message);
  }
  return { route: match.route, rawParams: match.params, path, rawQuery };
}

/** Step 3: the route's scope must be on the key; deliveries:write needs a verified organisation. */
export function authorizeStep(caller: Caller, route: RouteSpec): void {
  if (!caller.scopes.has(route.scope)) {
    throw new SandboxError(403, 'insufficient_scope', `this route requires the scope ${route.scope}, which the API key does not have`);
  }
  if (route.scope === 'deliveries:write' && !caller.org.verified) {
    throw new SandboxError(403, 'verification_required', `organisation ${caller.org.id} is not verified; write routes are unavailable until it is`);
  }
}

/**
 * Step 4: fixed-window rate limit per organisation. Returns the decision (its RateLimit-* headers
 * go on every answer, the 429 included), or undefined when no limit applies.
 */
export function rateLimitDecision(d: PipelineDeps, caller: Caller, nowMs = d.clock.nowMs()): RateDecision | undefined {
  if (!d.rateLimitEnabled) return undefined;
  const spec = caller.org.rateLimit ?? d.rateLimit;
  if (spec === null) return undefined;
  return d.limiter.take(caller.org.id, spec, nowMs);
}

/** Over the limit: 429 with Retry-After. */
export function rateLimited(r: RateDecision): SandboxError {
  return new SandboxError(429, 'rate_limited', `rate limit of ${r.limit} requests per ${r.windowS} s exceeded; retry after ${r.resetS} s`, undefined, undefined, {
    'Retry-After': String(r.resetS),
  });
}

/** Step 5a: decode and check path parameters; a malformed parcel id is a 400. */
export function paramsStep(raw: Record<string, string>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const name in raw) {
    const value = raw[name] as string;
    let decoded = value;
    try {
      if (value.includes('%')) decoded = decodeURIComponent(value);
    } catch {
      throw badRequest('invalid_path_parameter', `path parameter ${name} is not valid percent-encoding`, name);
    }
    if (name === 'id') {
      if (!UUID_PATTERN.test(decoded)) {
        throw badRequest('invalid_path_parameter', 'path parameter id must be a UUID (the parcel\'s entry_id)', 'id');
      }
      decoded = decoded.toLowerCase();
    }
    params[name] = decoded;
  }
  return params;
}

const NO_QUERY: ReadonlyMap<string, string> = new Map();

/** Step 5b: query parameters; unknown or repeated names are a 400. */
export function queryStep(rawQuery: string, allowed: readonly string[]): ReadonlyMap<string, string> {
  if (rawQuery === '') return NO_QUERY;
  const out = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(rawQuery)) {
    if (!allowed.includes(name)) {
      const hint = allowed.length === 0 ? 'this route takes no query parameters' : `allowed: ${allowed.join(', ')}`;
      throw badRequest('unknown_parameter', `unknown query parameter ${name} (${hint})`, name);
    }
    if (out.has(name)) throw badRequest('invalid_parameter', `query parameter ${name} is given more than once`, name);
    out.set(name, value);
  }
  return out;
}

/** Step 5c: a body route needs Content-Type application/json and a body of at most 1 MiB. */
export async function bodyStep(req: IncomingMessage): Promise<Buffer> {
  const type = req.headers['content-type'];
  if (type === undefined) throw badRequest('unsupported_content_type', 'send the body as JSON with Content-Type: application/json', 'Content-Type');
  const [media, ...params] = type.split(';').map((s) => s.trim().toLowerCase());
  if (media !== 'application/json') {
    throw badRequest('unsupported_content_type', `Content-Type must be application/json, not ${type}`, 'Content-Type');
  }
  for (const p of params) {
    if (p.startsWith('charset=') && !/^charset="?utf-8"?$/.test(p)) {
      throw badRequest('unsupported_content_type', 'JSON bodies must be UTF-8', 'Content-Type');
    }
  }
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  return readBody(req, MAX_BODY_BYTES);
}

function tooLarge(): SandboxError {
  return new SandboxError(400, 'body_too_large', `request body exceeds ${MAX_BODY_BYTES} bytes`, undefined, undefined, { Connection: 'close' });
}

function readBody(req: IncomingMessage, cap: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > cap) {
        cleanup();
        req.pause(); // stop reading; the answer closes the connection
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Step 5d: the bytes must be UTF-8 JSON; anything else is a 400. */
export function parseJsonStep(bytes: Buffer): unknown {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw badRequest('invalid_json', 'request body is not valid UTF-8');
  }
  if (text.trim() === '') throw badRequest('invalid_json', 'request body is empty; send a JSON object');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw badRequest('invalid_json', `request body is not valid JSON: ${(err as Error).message}`);
  }
}

/** Step 6a: the Idempotency-Key header (spec 8): required, 8 to 128 bytes, no surrounding whitespace. */
export function idempotencyKeyStep(req: IncomingMessage): string {
  const raw = req.headers['idempotency-key'];
  if (raw === undefined) {
    throw badRequest('idempotency_key_required', 'this route requires an Idempotency-Key header (8 to 128 bytes)', 'Idempotency-Key');
  }
  // Node joins repeated headers with ", "; the raw value must be checked as received.
  const key = req.headersDistinct['idempotency-key'];
  if (key && key.length > 1) throw badRequest('invalid_idempotency_key', 'send one Idempotency-Key header', 'Idempotency-Key');
  if (typeof raw !== 'string') throw badRequest('invalid_idempotency_key', 'send one Idempotency-Key header', 'Idempotency-Key');
  const result = validate(idempotencyKeySchema, raw);
  if (!result.ok) throw badRequest('invalid_idempotency_key', `Idempotency-Key ${result.issues[0]?.message ?? 'is invalid'}`, 'Idempotency-Key');
  return raw;
}

/** Steps 7–8: validate the request, run the handler, wrap the result in the envelope. */
export function executeStep(handler: RouteHandler, ctx: HandlerContext): SandboxResponse {
  const run = handler.validate(ctx);
  const result: HandlerResult = run();
  const body = result.body ?? (result.json === undefined ? dataBody(result.data) : `{"data":${result.json}}`);
  return { status: result.status, headers: result.headers ?? {}, body };
}

/**
 * Step 6b: idempotent execution. The lookup, the handler's writes and the stored response happen in
 * one synchronous SQLite transaction (no await in between), so concurrent duplicates cannot both
 * run. Only 2xx answers are stored; a 4xx or 5xx leaves the key unused so a corrected retry runs.
 */
export function idempotentStep(
  repo: Repository,
  orgId: string,
  key: string,
  fingerprint: { method: string; url: string; bodyHash: string },
  now: number,
  execute: () => SandboxResponse,
): SandboxResponse {
  return repo.transaction(() => {
    const existing = repo.getIdempotency(orgId, key);
    if (existing && existing.createdAt > now - IDEMPOTENCY_RETENTION_S) {
      if (existing.method !== fingerprint.method || existing.url !== fingerprint.url) {
        throw new SandboxError(409, 'idempotency_key_reused', `this Idempotency-Key was already used for ${existing.method} ${existing.url}; use a new key`, 'Idempotency-Key');
      }
      if (existing.bodyHash !== fingerprint.bodyHash) {
        throw new SandboxError(409, 'idempotency_key_reused', 'this Idempotency-Key was already used with a different body; use a new key', 'Idempotency-Key');
      }
      const r = existing.response;
      return { status: r.status, headers: { ...r.headers, 'Idempotent-Replayed': 'true' }, body: r.body };
    }
    let response: SandboxResponse;
    try {
      response = execute();
    } catch (err) {
      if (err instanceof SandboxError && err.status < 500) return errorResponse(err);
      throw err;
    }
    if (response.status >= 200 && response.status < 300) {
      repo.putIdempotency(orgId, key, { ...fingerprint, response, createdAt: now });
    }
    return response;
  });
}

/** What the pipeline learned about a request on the way, for the answer and the usage row. */
interface RequestState {
  method: string;
  url: string;
  /** The path without the query (the whole URL until routing has split it). */
  path: string;
  caller: Caller | undefined;
  drop: boolean;
  /** The rate-limit decision, when one was taken: its RateLimit-* headers go on the answer. */
  rate: RateDecision | undefined;
  /** Sandbox time of the request (read once): milliseconds, and whole seconds. */
  nowMs: number;
  now: number;
}

/** Everything before the body: the synchronous steps 1 to 5b. */
interface Prepared {
  route: RouteSpec;
  handler: RouteHandler;
  params: Record<string, string>;
  query: ReadonlyMap<string, string>;
}

function frontSteps(req: IncomingMessage, d: PipelineDeps, state: RequestState): Prepared {
  const routed = routeStep(state.method, state.url);
  state.path = routed.path;
  if (d.faults.active) {
    const fault = d.faults.decide();
    state.drop = fault.drop;
    if (fault.fail !== null) {
      throw fault.fail === 500
        ? new SandboxError(500, 'internal_error', 'injected fault: internal failure (nothing was changed)')
        : new SandboxError(503, 'service_unavailable', 'injected fault: service unavailable (nothing was changed)', undefined, undefined, { 'Retry-After': '1' });
    }
  }
  const caller = d.keyRing.authenticate(req.headers.authorization, state.now);
  state.caller = caller;
  authorizeStep(caller, routed.route);
  const rate = rateLimitDecision(d, caller, state.nowMs);
  state.rate = rate;
  if (rate !== undefined && !rate.allowed) throw rateLimited(rate);
  const handler = d.handlers[routed.route.name] as RouteHandler;
  const params = paramsStep(routed.rawParams);
  const query = queryStep(routed.rawQuery, handler.query);
  return { route: routed.route, handler, params, query };
}

/** Steps 5d to 8, once the body (if the route has one) is in. */
function backSteps(req: IncomingMessage, d: PipelineDeps, state: RequestState, p: Prepared, bytes: Buffer | undefined): SandboxResponse {
  const body = bytes === undefined ? undefined : parseJsonStep(bytes);
  const key = p.route.idempotent ? idempotencyKeyStep(req) : undefined;
  const caller = state.caller as Caller;
  const ctx: HandlerContext = {
    deps: d,
    org: caller.org,
    params: p.params,
    query: p.query,
    headers: req.headers,
    body,
    now: state.now,
  };
  if (key === undefined) return executeStep(p.handler, ctx);
  const fingerprint = { method: state.method, url: state.url, bodyHash: sha256(bytes ?? '').toString('hex') };
  return idempotentStep(d.repo, caller.org.id, key, fingerprint, ctx.now, () => executeStep(p.handler, ctx));
}

function failed(err: unknown): SandboxResponse {
  return errorResponse(err instanceof SandboxError ? err : internalError(err));
}

function outcome(d: PipelineDeps, state: RequestState, response: SandboxResponse): Outcome {
  const caller = state.caller;
  if (caller) d.usage.record({ orgId: caller.org.id, method: state.method, path: state.path, status: response.status, at: state.now });
  return { response, drop: state.drop, rate: state.rate, nowMs: state.nowMs };
}

/**
 * The whole pipeline for one request. Never throws or rejects: failures become envelopes. Routes
 * without a body (GET) run synchronously and return the Outcome itself; only body routes return a
 * Promise, because reading the body waits for the socket.
 */
export function runPipeline(req: IncomingMessage, d: PipelineDeps, clock: SandboxClock): Outcome | Promise<Outcome> {
  const url = req.url ?? '/';
  const nowMs = clock.nowMs();
  const state: RequestState = { method: req.method ?? 'GET', url, path: url, caller: undefined, drop: false, rate: undefined, nowMs, now: Math.floor(nowMs / 1000) };
  let prepared: Prepared;
  try {
    prepared = frontSteps(req, d, state);
    if (prepared.route.method === 'GET') return outcome(d, state, backSteps(req, d, state, prepared, undefined));
  } catch (err) {
    return outcome(d, state, failed(err));
  }
  const p = prepared;
  return bodyStep(req).then(
    (bytes) => {
      // The handler's time is when the body is in, as for a request without one.
      state.nowMs = clock.nowMs();
      state.now = Math.floor(state.nowMs / 1000);
      let response: SandboxResponse;
      try {
        response = backSteps(req, d, state, p, bytes);
      } catch (err) {
        response = failed(err);
      }
      return outcome(d, state, response);
    },
    (err: unknown) => {
      state.nowMs = clock.nowMs();
      state.now = Math.floor(state.nowMs / 1000);
      return outcome(d, state, failed(err));
    },
  );
}

function internalError(err: unknown): SandboxError {
  if (process.env.PARCELS_SANDBOX_DEBUG) console.error(err);
  return new SandboxError(500, 'internal_error', 'internal failure');
}
