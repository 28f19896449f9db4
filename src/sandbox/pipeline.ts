/**
 * The request pipeline, as a list of steps: route → faults → auth → scope → rate limit → path and
 * query → (body) → JSON → idempotency key → validate → handler (a write in a transaction,
 * idempotent where the route is, committed with the turn's other writes) → envelope. Each step reads and fills the request's own state, or throws a
 * SandboxError, which becomes an error envelope.
 */
import type { IncomingMessage } from 'node:http';
import { idempotencyKeySchema } from '../schemas/headers.js';
import { UUID_PATTERN } from '../schemas/parcel.js';
import type { RouteSpec } from '../schemas/routes.js';
import { matchRoute } from '../schemas/routes.js';
import { validate } from '../schemas/validate.js';
import type { Caller, KeyLookup } from './auth.js';
import { authenticate } from './auth.js';
import { ClientGoneError, readJsonBody } from './body.js';
import type { SandboxResponse } from './envelope.js';
import { dataBody, errorResponse } from './envelope.js';
import { SandboxError, badRequest } from './errors.js';
import type { Faults } from './faults.js';
import { sha256 } from './hash.js';
import { idempotentStep } from './idempotency.js';
import type { Deps, HandlerContext, RouteHandler } from './handlers/types.js';
import type { RateDecision, RateLimiter } from './ratelimit.js';
import type { LoggedRequest } from './requestlog.js';
import type { RateLimitSpec } from './seed.js';
import type { UsageRecorder } from './usage.js';
import type { WriteBatcher } from './write-batch.js';

export { MAX_BODY_BYTES } from './body.js';
export { IDEMPOTENCY_RETENTION_S } from './idempotency.js';

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

export interface Outcome {
  response: SandboxResponse;
  /** Destroy the connection instead of answering (drop fault, or the client is gone). */
  drop: boolean;
  /** The rate-limit decision for an authenticated request (RateLimit-* headers), if a limit applies. */
  rate: RateDecision | undefined;
  /** Sandbox data time (ms) the answer was made at. */
  nowMs: number;
  /** What the request log keeps of the request (never its headers). */
  request: LoggedRequest;
}

function logged(s: RequestState): LoggedRequest {
  return { method: s.method, path: s.path, route: s.route?.name ?? null, org: s.caller?.org.id ?? null, authorized: s.req.headers.authorization !== undefined, body: s.bytes };
}

/** What the steps learn about one request; each step reads what earlier ones filled in. */
interface RequestState {
  readonly req: IncomingMessage;
  readonly method: string;
  readonly url: string;
  /** The path without the query (the whole URL until routing has split it). */
  path: string;
  rawQuery: string;
  route: RouteSpec | undefined;
  rawParams: Record<string, string>;
  handler: RouteHandler | undefined;
  caller: Caller | undefined;
  drop: boolean;
  rate: RateDecision | undefined;
  params: Record<string, string>;
  query: ReadonlyMap<string, string>;
  bytes: Buffer | undefined;
  body: unknown;
  idempotencyKey: string | undefined;
  /** Data time of the request (read once, again when the body is in): milliseconds and whole seconds. */
  nowMs: number;
  now: number;
}

type Step = (s: RequestState, d: PipelineDeps) => void;

/** The query of a request without one (most of them), shared rather than made for each. */
const NO_QUERY: ReadonlyMap<string, string> = new Map();

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
  s.rawParams = match.params;
  s.handler = d.handlers[match.route.name];
};

/** Injected faults: answer 500/503 before anything runs, or mark the request to be dropped. */
const faultStep: Step = (s, d) => {
  if (!d.faults.active) return;
  const fault = d.faults.decide();
  s.drop = fault.drop;
  if (fault.fail === 500) throw new SandboxError(500, 'internal_error', 'injected fault: internal failure (nothing was changed)');
  if (fault.fail === 503) {
    throw new SandboxError(503, 'service_unavailable', 'injected fault: service unavailable (nothing was changed)', undefined, undefined, { 'Retry-After': '1' });
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
  const r = d.limiter.take(caller.org.id, spec, d.clock.elapsedMs());
  s.rate = r;
  if (!r.allowed) {
    throw new SandboxError(429, 'rate_limited', `rate limit of ${r.limit} requests per ${r.windowS} s exceeded; retry after ${r.resetS} s`, undefined, undefined, {
      'Retry-After': String(r.resetS),
    });
  }
};

/** Decode and check path parameters; a malformed parcel id is a 400. */
const paramsStep: Step = (s) => {
  for (const name in s.rawParams) {
    const value = s.rawParams[name] as string;
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

/** Validates the request (a 4xx throws here, before any transaction) and returns the handler's run, wrapped in the envelope. */
function prepare(s: RequestState, d: PipelineDeps): () => SandboxResponse {
  const caller = s.caller as Caller;
  const ctx: HandlerContext = { deps: d, org: caller.org, params: s.params, query: s.query, headers: s.req.headers, body: s.body, now: s.now };
  const run = (s.handler as RouteHandler).validate(ctx);
  return () => {
    const result = run();
    return { status: result.status, headers: result.headers ?? {}, body: dataBody(result.data) };
  };
}

/** A GET reads, now. */
function readStep(s: RequestState, d: PipelineDeps): SandboxResponse {
  return prepare(s, d)();
}

/**
 * Any other route writes: in its own transaction (its reads, checks and writes are atomic across
 * processes), an idempotent one storing its answer in that same transaction, committed with the
 * other writes of this turn (write-batch.ts) and settled once committed.
 */
function writeStep(s: RequestState, d: PipelineDeps): Promise<SandboxResponse> {
  const execute = prepare(s, d);
  const key = s.idempotencyKey;
  if (key === undefined) return d.writes.run(() => d.repo.transaction(execute));
  const fingerprint = { method: s.method, url: s.url, bodyHash: sha256(s.bytes ?? '').toString('hex') };
  const orgId = (s.caller as Caller).org.id;
  return d.writes.run(() => idempotentStep(d.repo, orgId, key, fingerprint, s.now, execute));
}

function runSteps(steps: readonly Step[], s: RequestState, d: PipelineDeps): void {
  for (const step of steps) step(s, d);
}

function failed(err: unknown): SandboxResponse {
  if (err instanceof SandboxError) return errorResponse(err);
  if (process.env.PARCELS_SANDBOX_DEBUG) console.error(err);
  return errorResponse(new SandboxError(500, 'internal_error', 'internal failure'));
}

function outcome(d: PipelineDeps, s: RequestState, response: SandboxResponse): Outcome {
  const caller = s.caller;
  if (caller) d.usage.record({ orgId: caller.org.id, method: s.method, path: s.path, status: response.status, at: s.now });
  return { response, drop: s.drop, rate: s.rate, nowMs: s.nowMs, request: logged(s) };
}

function takeTime(s: RequestState, d: PipelineDeps): void {
  s.nowMs = d.clock.nowMs();
  s.now = Math.floor(s.nowMs / 1000);
}

/**
 * The whole pipeline for one request. Never throws or rejects: failures become envelopes. Routes
 * without a body (GET) run synchronously and return the Outcome itself; body routes return a
 * Promise, because reading the body waits for the socket.
 */
export function runPipeline(req: IncomingMessage, d: PipelineDeps): Outcome | Promise<Outcome> {
  const url = req.url ?? '/';
  const s: RequestState = {
    req, method: req.method ?? 'GET', url, path: url, rawQuery: '', route: undefined, rawParams: {}, handler: undefined,
    caller: undefined, drop: false, rate: undefined, params: {}, query: NO_QUERY, bytes: undefined, body: undefined,
    idempotencyKey: undefined, nowMs: 0, now: 0,
  };
  takeTime(s, d);
  try {
    runSteps(FRONT_STEPS, s, d);
    if (s.method === 'GET') {
      runSteps(BACK_STEPS, s, d);
      return outcome(d, s, readStep(s, d));
    }
  } catch (err) {
    return outcome(d, s, failed(err));
  }
  return readJsonBody(req).then(
    (bytes) => {
      // The handler's time is when the body is in, as for a request without one.
      takeTime(s, d);
      s.bytes = bytes;
      let written: Promise<SandboxResponse>;
      try {
        runSteps(BACK_STEPS, s, d);
        written = writeStep(s, d);
      } catch (err) {
        return outcome(d, s, failed(err));
      }
      return written.then(
        (response) => outcome(d, s, response),
        (err: unknown) => outcome(d, s, failed(err)),
      );
    },
    (err: unknown) => {
      takeTime(s, d);
      // A client that left mid-body is not a request the API answered: no usage row, no answer.
      if (err instanceof ClientGoneError) return { response: failed(badRequest('client_disconnected', err.message)), drop: true, rate: s.rate, nowMs: s.nowMs, request: logged(s) };
      return outcome(d, s, failed(err));
    },
  );
}
