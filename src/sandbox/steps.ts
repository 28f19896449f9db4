/**
 * The request pipeline's steps, in order: route → faults → auth → scope → rate limit → path and
 * query → (body) → JSON → idempotency key. Each reads and fills the request's own state, or throws
 * a SandboxError, which becomes an error envelope (pipeline.ts runs them).
 */
import type { IncomingMessage } from 'node:http';
import { idempotencyKeySchema } from '../schemas/headers.js';
import { UUID_PATTERN } from '../schemas/parcel-id.js';
import type { RouteSpec } from '../schemas/routes.js';
import { matchRoute } from '../schemas/routes.js';
import { validate } from '../schemas/validate.js';
import type { Caller, KeyLookup } from './auth.js';
import { authenticate } from './auth.js';
import type { SandboxResponse } from './envelope.js';
import type { ErrorStatus } from './errors.js';
import { SandboxError, badRequest } from './errors.js';
import type { Faults } from './faults/index.js';
import type { Deps, RouteHandler } from './handlers/types.js';
import type { RateDecision, RateLimiter } from './ratelimit.js';
import type { RateLimitSpec } from './seed.js';
import type { UsageRecorder } from './usage.js';
import type { WriteBatcher } from './write-batch.js';

export interface PipelineDeps extends Deps {
  keys: KeyLookup;
  limiter: RateLimiter;
  faults: Faults;
  usage: UsageRecorder;
  handlers: Record<string, RouteHandler>;
  /** Sandbox-wide limit; an organisation's own limit wins. null: no limit unless the organisation sets one. */
  rateLimit: RateLimitSpec | null;
  /** false: rate limiting is off entirely. */
  rateLimitEnabled: boolean;
  /** Commits the writes of one turn together. */
  writes: WriteBatcher<SandboxResponse>;
}

/** What the steps learn about one request; each step reads what earlier ones filled in. */
export interface RequestState {
  readonly req: IncomingMessage;
  readonly method: string;
  readonly url: string;
  /** The path without the query (the whole URL until routing has split it). */
  path: string;
  rawQuery: string;
  route: RouteSpec | undefined;
  handler: RouteHandler | undefined;
  caller: Caller | undefined;
  drop: boolean;
  /** The injected fault that shapes the answer (an aimed fault's id, `fail_rate`, `drop_rate`, `latency`), for the request log. */
  fault: string | null;
  /** Wait this long before answering (the rates' latency, or an aimed fault's). */
  latencyMs: number;
  rate: RateDecision | undefined;
  params: Record<string, string>;
  query: ReadonlyMap<string, string>;
  bytes: Buffer | undefined;
  body: unknown;
  idempotencyKey: string | undefined;
  /** Data time of the request (read once, again when the body is in): milliseconds and whole seconds. */
  nowMs: number;
  now: number;
  /** Elapsed time when the request arrived: the rate-limit window it counts in. */
  readonly elapsedMs: number;
}

export type Step = (s: RequestState, d: PipelineDeps) => void;

/** The query of a request without one (most of them), shared rather than made for each. */
export const NO_QUERY: ReadonlyMap<string, string> = new Map();

/** Match method and path against the spec's route table; unknown → 404. */
const routeStep: Step = (s, d) => {
  if (!s.url.startsWith('/')) throw new SandboxError(404, 'route_not_found', 'no such route');
  const q = s.url.indexOf('?');
  s.path = q === -1 ? s.url : s.url.slice(0, q);
  s.rawQuery = q === -1 ? '' : s.url.slice(q + 1);
  const match = matchRoute(s.method, s.path);
  if (match.route === undefined) {
    throw new SandboxError(404, 'route_not_found', match.pathKnown ? `${s.method} is not supported on ${s.path}` : `no route ${s.path}`);
  }
  s.route = match.route;
  // Still as they appear in the path: paramsStep decodes and checks them in place.
  s.params = match.params;
  s.handler = d.handlers[match.route.name];
};

/** The organisation of the request's key, or null: asked only by a fault aimed at one organisation. */
function orgOf(s: RequestState, d: PipelineDeps): string | null {
  try {
    return authenticate(d.keys, s.req.headers.authorization, s.now).org.id;
  } catch {
    return null;
  }
}

/**
 * Injected faults, before authentication: an error answer (nothing runs), a request marked to be
 * dropped (before or after it runs), or a latency. An aimed fault may answer any 4xx or 5xx a client
 * must survive, beyond the spec's own statuses.
 */
const faultStep: Step = (s, d) => {
  if (d.faults.quiet) return;
  const verdict = d.faults.decide({ route: (s.route as RouteSpec).name, method: s.method, path: s.path, org: () => orgOf(s, d) });
  if (verdict.kind === 'none') return;
  s.fault = verdict.fault;
  s.latencyMs = verdict.latencyMs;
  s.drop = verdict.drop;
  if (verdict.kind === 'answer') {
    const headers = verdict.retryAfterS === undefined ? undefined : { 'Retry-After': String(verdict.retryAfterS) };
    throw new SandboxError(verdict.status as ErrorStatus, verdict.code, verdict.message, undefined, undefined, headers);
  }
};

const authStep: Step = (s, d) => {
  s.caller = authenticate(d.keys, s.req.headers.authorization, s.now);
};

/** The route's scope must be on the key; deliveries:write needs a verified organisation. */
const scopeStep: Step = (s) => {
  const { caller, route } = s as { caller: Caller; route: RouteSpec };
  if (!caller.scopes.has(route.scope)) {
    throw new SandboxError(403, 'insufficient_scope', `this route requires the scope ${route.scope}, which the API key does not have`);
  }
  if (route.scope === 'deliveries:write' && !caller.org.verified) {
    throw new SandboxError(403, 'verification_required', `organisation ${caller.org.id} is not verified; write routes are unavailable until it is`);
  }
};

/** Fixed-window limit per organisation on elapsed time; its RateLimit-* headers go on every answer, the 429 included. */
const rateLimitStep: Step = (s, d) => {
  if (!d.rateLimitEnabled) return;
  const caller = s.caller as Caller;
  const spec = caller.org.rateLimit ?? d.rateLimit;
  if (spec === null) return;
  const r = d.limiter.take(caller.org.id, spec, s.elapsedMs);
  s.rate = r;
  if (!r.allowed) {
    throw new SandboxError(429, 'rate_limited', `rate limit of ${r.limit} requests per ${r.windowS} s exceeded; retry after ${r.resetS} s`, undefined, undefined, {
      'Retry-After': String(r.resetS),
    });
  }
};

/** Decode and check path parameters; a malformed parcel id is a 400. */
const paramsStep: Step = (s) => {
  for (const name in s.params) {
    const value = s.params[name] as string;
    let decoded = value;
    try {
      if (value.includes('%')) decoded = decodeURIComponent(value);
    } catch {
      throw badRequest('invalid_path_parameter', `path parameter ${name} is not valid percent-encoding`, name);
    }
    if (name === 'id') {
      if (!UUID_PATTERN.test(decoded)) throw badRequest('invalid_path_parameter', 'path parameter id must be a UUID (the parcel\'s entry_id)', 'id');
      decoded = decoded.toLowerCase();
    }
    s.params[name] = decoded;
  }
};

/** Query parameters; unknown or repeated names are a 400. */
const queryStep: Step = (s) => {
  if (s.rawQuery === '') return;
  const allowed = (s.handler as RouteHandler).query;
  const out = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(s.rawQuery)) {
    if (!allowed.includes(name)) {
      const hint = allowed.length === 0 ? 'this route takes no query parameters' : `allowed: ${allowed.join(', ')}`;
      throw badRequest('unknown_parameter', `unknown query parameter ${name} (${hint})`, name);
    }
    if (out.has(name)) throw badRequest('invalid_parameter', `query parameter ${name} is given more than once`, name);
    out.set(name, value);
  }
  s.query = out;
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body bytes must be UTF-8 JSON; anything else is a 400. */
const jsonStep: Step = (s) => {
  if (s.bytes === undefined) return;
  let text: string;
  try {
    text = utf8.decode(s.bytes);
  } catch {
    throw badRequest('invalid_json', 'request body is not valid UTF-8');
  }
  if (text.trim() === '') throw badRequest('invalid_json', 'request body is empty; send a JSON object');
  try {
    s.body = JSON.parse(text);
  } catch (err) {
    throw badRequest('invalid_json', `request body is not valid JSON: ${(err as Error).message}`);
  }
};

/** The Idempotency-Key header (spec 8) of an idempotent route: required, 8 to 128 bytes, no surrounding whitespace. */
const idempotencyKeyStep: Step = (s) => {
  if (!(s.route as RouteSpec).idempotent) return;
  const raw = s.req.headers['idempotency-key'];
  if (raw === undefined) {
    throw badRequest('idempotency_key_required', 'this route requires an Idempotency-Key header (8 to 128 bytes)', 'Idempotency-Key');
  }
  // Node joins repeated headers with ", "; the raw value must be checked as received.
  const all = s.req.headersDistinct['idempotency-key'];
  if ((all && all.length > 1) || typeof raw !== 'string') throw badRequest('invalid_idempotency_key', 'send one Idempotency-Key header', 'Idempotency-Key');
  const result = validate(idempotencyKeySchema, raw);
  if (!result.ok) throw badRequest('invalid_idempotency_key', `Idempotency-Key ${result.issues[0]?.message ?? 'is invalid'}`, 'Idempotency-Key');
  s.idempotencyKey = raw;
};

/** Steps before the body, in order. */
export const FRONT_STEPS: readonly Step[] = [routeStep, faultStep, authStep, scopeStep, rateLimitStep, paramsStep, queryStep];
/** Steps once the body (if the route has one) is in, before the handler. */
export const BACK_STEPS: readonly Step[] = [jsonStep, idempotencyKeyStep];
