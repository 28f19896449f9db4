/**
 * The request pipeline: the steps of steps.ts, then validate → handler (a GET reads now; a write
 * runs in a transaction, idempotent where the route is, committed with the turn's other writes) →
 * envelope. Never throws: failures become error envelopes.
 */
import type { IncomingMessage } from 'node:http';
import type { Caller } from './auth.js';
import { ClientGoneError, readJsonBody } from './body.js';
import type { SandboxResponse } from './envelope.js';
import { dataBody, errorResponse } from './envelope.js';
import { SandboxError, badRequest } from './errors.js';
import { sha256 } from './hash.js';
import { idempotentStep } from './idempotency.js';
import type { HandlerContext, RouteHandler } from './handlers/types.js';
import type { RateDecision } from './ratelimit.js';
import type { LoggedRequest } from './requestlog.js';
import type { PipelineDeps, RequestState, Step } from './steps.js';
import { BACK_STEPS, FRONT_STEPS, NO_QUERY } from './steps.js';

export { MAX_BODY_BYTES } from './body.js';
export { IDEMPOTENCY_RETENTION_S } from './idempotency.js';
export type { PipelineDeps } from './steps.js';

export interface Outcome {
  response: SandboxResponse;
  /** Destroy the connection instead of answering (drop fault, or the client is gone). */
  drop: boolean;
  /** The injected fault that shaped the answer, for the request log (RequestState.fault). */
  fault: string | null;
  /** Wait this long before answering or dropping. */
  latencyMs: number;
  /** The rate-limit decision for an authenticated request (RateLimit-* headers), if a limit applies. */
  rate: RateDecision | undefined;
  /** Sandbox data time (ms) the answer was made at. */
  nowMs: number;
  /** What the request log keeps of the request (redacted when read). */
  request: LoggedRequest;
}

function logged(s: RequestState): LoggedRequest {
  return {
    method: s.method, path: s.path, query: s.rawQuery, route: s.route?.name ?? null, org: s.caller?.org.id ?? null,
    authorized: s.req.headers.authorization !== undefined, rawHeaders: s.req.rawHeaders, body: s.bytes,
  };
}

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
  if (key === undefined) return d.writes.run(execute);
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
  return { response, drop: s.drop, fault: s.fault, latencyMs: s.latencyMs, rate: s.rate, nowMs: s.nowMs, request: logged(s) };
}

function takeTime(s: RequestState, d: PipelineDeps): void {
  s.nowMs = d.clock.nowMs();
  s.now = Math.floor(s.nowMs / 1000);
}

/** The clock's two times when the request arrived (the app reads them once per request). */
export interface Arrival {
  /** Data time, epoch milliseconds. */
  nowMs: number;
  /** Elapsed time, milliseconds. */
  elapsedMs: number;
}

/** The path parameters of a request before routing (routing sets the route's own). */
const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/**
 * The whole pipeline for one request. Never throws or rejects: failures become envelopes. Routes
 * without a body (GET) run synchronously and return the Outcome itself; body routes return a
 * Promise, because reading the body waits for the socket.
 */
export function runPipeline(req: IncomingMessage, d: PipelineDeps, arrival: Arrival): Outcome | Promise<Outcome> {
  const url = req.url ?? '/';
  const latencyMs = d.faults.rates.latencyMs;
  const s: RequestState = {
    req, method: req.method ?? 'GET', url, path: url, rawQuery: '', route: undefined, handler: undefined,
    caller: undefined, drop: false, fault: latencyMs > 0 ? 'latency' : null, latencyMs, rate: undefined, params: NO_PARAMS, query: NO_QUERY, bytes: undefined, body: undefined,
    idempotencyKey: undefined, nowMs: arrival.nowMs, now: Math.floor(arrival.nowMs / 1000), elapsedMs: arrival.elapsedMs,
  };
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
      if (err instanceof ClientGoneError) return { response: failed(badRequest('client_disconnected', err.message)), drop: true, fault: null, latencyMs: 0, rate: s.rate, nowMs: s.nowMs, request: logged(s) };
      return outcome(d, s, failed(err));
    },
  );
}
