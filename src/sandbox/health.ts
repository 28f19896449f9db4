/**
 * GET and HEAD /_sandbox/health: whether the sandbox is ready, for a CI job's readiness check
 * (`curl -fsI`, wait-on). No part of the API: no key, no faults, no latency, no rate limit, no
 * usage row, and not in the request log (a probe polling every 100 ms would push the requests a
 * test looks for out of the log and fill the log file). 200 once ready; 503 while starting or
 * stopping, so a probe never passes against a sandbox that is going away.
 */
import type { IncomingMessage } from 'node:http';
import type { ClockStatus } from '../schemas/sandbox-admin.js';
import { VERSION } from '../schemas/version.js';
import type { SandboxResponse } from './envelope.js';
import { dataBody, errorResponse } from './envelope.js';
import { SandboxError } from './errors.js';

export const HEALTH_PATH = '/_sandbox/health';

/** GET or HEAD on the path, any query; another method falls through to the API's 404 `route_not_found`. */
export function isHealthRequest(req: IncomingMessage): boolean {
  const url = req.url;
  return (req.method === 'GET' || req.method === 'HEAD') && (url === HEALTH_PATH || url?.startsWith(`${HEALTH_PATH}?`) === true);
}

/** Where the sandbox is in its life: `starting` until the process that runs it says it is ready (index.ts). */
export type Readiness = 'starting' | 'ready' | 'stopping';

/** What the health answer reports. */
export interface HealthDeps {
  readiness(): Readiness;
  /** Real (wall) time the sandbox started, epoch ms. */
  startedAtMs: number;
  /** Elapsed (monotonic) milliseconds since it started. */
  uptimeMs(): number;
  /** The test clock (data time). */
  clock(): ClockStatus;
}

const NO_STORE = { 'Cache-Control': 'no-store' };

const NOT_READY: Readonly<Record<Exclude<Readiness, 'ready'>, string>> = {
  starting: 'the sandbox is starting',
  stopping: 'the sandbox is stopping',
};

/**
 * 200 `{"data": {status: "ok", version, started_at, uptime_s, clock}}` when ready; else 503 with
 * the error envelope, code `starting` or `stopping`. Never cached.
 */
export function healthResponse(d: HealthDeps): SandboxResponse {
  const readiness = d.readiness();
  if (readiness !== 'ready') return errorResponse(new SandboxError(503, readiness, NOT_READY[readiness], undefined, undefined, NO_STORE));
  const data = { status: 'ok', version: VERSION, started_at: new Date(d.startedAtMs).toISOString(), uptime_s: Math.floor(d.uptimeMs() / 1000), clock: d.clock() };
  return { status: 200, headers: { ...NO_STORE }, body: dataBody(data) };
}
