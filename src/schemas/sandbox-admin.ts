/**
 * What the sandbox's admin route (/_sandbox/v1/…, docs/sandbox.md) answers, written once: the
 * sandbox builds these, the `parcels sandbox …` commands read them, and the inspector page (which
 * reaches the same routes through its session) shows them. Plain types, no zod: the browser page
 * imports this file and the library's published types stay plain.
 */

/** The moves of the test clock: `POST /_sandbox/v1/clock/{action}`. */
export const CLOCK_ACTIONS = ['advance', 'set', 'freeze', 'resume', 'speed'] as const;
export type ClockAction = (typeof CLOCK_ACTIONS)[number];

/** The test clock (`GET /_sandbox/v1/clock`, and every clock move's answer). */
export interface ClockStatus {
  /** Data time, epoch milliseconds. */
  now_ms: number;
  /** Data time, ISO 8601 UTC. */
  now: string;
  frozen: boolean;
  speed: number;
}

/** One planned report of a scenario run: arrival time, observation time, what, how many copies; `applied` once stored. */
export interface ScenarioRunStep {
  arrives_at: number;
  occurred_at: number;
  event?: number;
  attempt?: { outcome: number; reason: number };
  copies: number;
  applied: boolean;
}

/** A parcel's scenario run (`GET|POST /_sandbox/v1/parcels/{id}/scenario`). */
export interface ScenarioRunView {
  entry_id: string;
  scenario: string;
  run: number;
  started_at: number;
  steps: ScenarioRunStep[];
  refused: Array<{ step: number; code: string }>;
  done: boolean;
}

/**
 * One request the sandbox received and what it answered. Never holds a key or the Authorization
 * header: every known key and the admin token are taken out of its path, query, header values and
 * bodies (redact.ts) before anyone reads it.
 */
export interface LogEntry {
  /** 1, 2, … in arrival order of the answers; `after` in the admin route pages by it. */
  seq: number;
  /** Data time of the request, ISO 8601 UTC. */
  at: string;
  method: string;
  /** The path without the query string. */
  path: string;
  /** The query string without its `?`; null when there was none. */
  query: string | null;
  /** The spec's route name (e.g. parcels.create), null for an unknown route. */
  route: string | null;
  /** The organisation of the key, when it authenticated. */
  org: string | null;
  /** "Bearer [redacted]" when an Authorization header was sent, else null. */
  authorization: string | null;
  /** The status answered; null when the connection was dropped unanswered (drop fault, client gone). */
  status: number | null;
  /** The error envelope's code, if any. */
  code: string | null;
  /** Whether the answer was an idempotent replay. */
  replay: boolean;
  /** Time from the request's arrival to its answer, in milliseconds. */
  latency_ms: number;
  /** With the bodies: the request's headers (names in lower case, Authorization left out). */
  headers?: Record<string, string>;
  request_body?: string;
  response_body?: string;
}

/** A page of the request log (`GET /_sandbox/v1/logs?after=&wait=&limit=&bodies=`). */
export interface LogPage {
  entries: LogEntry[];
  /** The newest entry's `seq` so far. */
  latest: number;
  /** The sandbox answered while stopping on purpose: a follower ends. */
  stopping?: true;
}

/** A fresh one-time login link of the web inspector (`POST /_sandbox/v1/ui/login`): a path on the sandbox's own origin. */
export interface InspectorLogin {
  /** `/_sandbox/ui/#code=…` (INSPECTOR_LOGIN_PATH). */
  path: string;
  expires_in_s: number;
}

/**
 * A tenant: a whole sandbox of its own (data, organisations, keys, test clock, faults, rate limits,
 * request log) served under `path` on the same listener (`POST|GET /_sandbox/v1/tenants`).
 */
export interface Tenant {
  name: string;
  /** `/t/<name>`: the tenant's base path; its API, admin route and health live under it. */
  path: string;
  /** When it was created, ISO 8601 UTC (wall-clock time). */
  created_at: string;
}

/** `GET /_sandbox/v1/tenants`, oldest first. */
export interface TenantList {
  tenants: Tenant[];
}

/** `DELETE /_sandbox/v1/tenants/{name}`. */
export interface TenantRemoved {
  removed: Tenant;
}

/** `POST /_sandbox/v1/reset`: the sandbox (or tenant) is back at its seed; its test clock runs at real time. */
export interface ResetAnswer {
  clock: ClockStatus;
}

/** A tenant's name: lower-case letters, digits and dashes, 1 to 40, not starting with a dash. */
export const TENANT_NAME = /^[a-z0-9][a-z0-9-]{0,39}$/;
/** Tenants one sandbox holds at most. */
export const MAX_TENANTS = 64;
/** Every tenant's base path starts so: `/t/<name>`. */
export const TENANT_PREFIX = '/t/';
