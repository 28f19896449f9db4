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

/** A JSON value as the request log shows a body. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [name: string]: JsonValue };

/**
 * One request the sandbox received and what it answered. Never holds a key or the Authorization
 * header: every known key and the admin token are taken out of its path, query, header values and
 * bodies (redact.ts) before anyone reads it.
 */
export interface LogEntry {
  /** 1, 2, … in arrival order of the answers; `after` in the admin route pages by it. */
  seq: number;
  /** Data time of the request (the test clock's), ISO 8601 UTC. */
  at: string;
  /** Wall-clock time the request arrived, ISO 8601 UTC: apart from `at` when the test clock is moved or frozen. */
  arrived_at: string;
  method: string;
  /** The path without the query string. */
  path: string;
  /** The query string without its `?`; null when there was none. */
  query: string | null;
  /** The query decoded: a name sent once holds its value, a name sent twice or more the list of them. */
  query_params: Record<string, string | string[]>;
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
  /** The injected fault that shaped the answer: an aimed fault's id (`flt_3`), or `fail_rate`, `drop_rate`, `latency`; null when none. */
  fault: string | null;
  /** With the bodies: the request's headers (names in lower case, Authorization left out). */
  headers?: Record<string, string>;
  /**
   * With the bodies: the request's body as a JSON value when it is JSON; as a string when it is not
   * JSON, and when it was longer than the log keeps (8 KiB): then its first bytes and a note such as
   * `… (1200 more bytes)`.
   */
  request_body?: JsonValue;
  /** With the bodies: the answer's body, as `request_body` (a dropped answer has none). */
  response_body?: JsonValue;
}

/** A page of the request log (`GET /_sandbox/v1/logs?after=&wait=&limit=&bodies=` and the filters of log-filter.ts). */
export interface LogPage {
  entries: LogEntry[];
  /** The newest entry's `seq` so far (whatever the filters). */
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
 * An aimed fault (`POST /_sandbox/v1/faults`): which requests it matches (a route name, or a method
 * with an exact path; optionally an organisation), and what they get instead: an error status with
 * an envelope, a latency, or a dropped connection; for the next `times` of them, or until removed.
 */
export interface FaultRuleInput {
  /** An API route name, e.g. `attempts.create` (src/schemas/routes.ts). */
  route?: string;
  method?: string;
  /** An exact path as sent, without the query string. */
  path?: string;
  /** Only requests whose key belongs to this organisation. */
  org?: string;
  /** Answer this status (400..599) with an error envelope, the request not carried out. */
  status?: number;
  /** The envelope's code; default: the status's own (FAULT_STATUS_DEFAULTS). */
  code?: string;
  message?: string;
  /** Retry-After of the answer, in seconds; a 503 or 429 without one takes the rates' retry_after_s. */
  retry_after_s?: number;
  /** Wait this long before answering (or dropping); instead of the rates' latency. */
  latency_ms?: number;
  /** Close the connection unanswered: after the request is carried out (committed), or before with `drop_before`. */
  drop?: true;
  /** With `drop`: the request is not carried out (nothing changes). */
  drop_before?: true;
  /** How many matching requests get the fault (whole, >= 1); omitted: until removed. */
  times?: number;
}

/** An aimed fault as the sandbox keeps it. */
export interface FaultRule extends FaultRuleInput {
  /** `flt_1`, `flt_2`, … */
  id: string;
  /** Matching requests still to get the fault; null: until removed. A spent rule (0) stays listed until removed or cleared. */
  remaining: number | null;
  /** Requests that got the fault so far. */
  hits: number;
}

/** The dice of the fault rates: every routed request, whatever it is. */
export interface FaultRates {
  /** Share (0..1) answered 500 or 503, not carried out. */
  fail_rate: number;
  /** Share (0..1) carried out, then the connection closed unanswered. */
  drop_rate: number;
  /** Delay before every answer, in milliseconds. */
  latency_ms: number;
  /** Retry-After of an injected 503 (and of an aimed 503 or 429 without its own), in seconds. */
  retry_after_s: number;
}

/** `GET /_sandbox/v1/faults`. */
export interface FaultList {
  rules: FaultRule[];
  rates: FaultRates;
}

/** The bounds of faults, checked by the admin route, the library and the CLI alike. */
export const FAULT_LIMITS = {
  /** Aimed faults kept at once (spent ones are let go first when a new one needs the room). */
  rules: 100,
  latencyMs: 600_000,
  times: 1_000_000,
  retryAfterS: 3600,
  /** Characters of a code, a message, a path or an organisation id. */
  text: 2048,
} as const;

/** The envelope of an aimed status without its own code and message: the spec's error table (section 7). */
export const FAULT_STATUS_DEFAULTS: Readonly<Record<number, { code: string; message: string }>> = {
  400: { code: 'invalid_request', message: 'invalid request' },
  401: { code: 'invalid_credentials', message: 'invalid or expired credentials' },
  403: { code: 'insufficient_scope', message: 'missing permission or verification' },
  404: { code: 'not_found', message: 'resource not found' },
  409: { code: 'conflict', message: 'conflict' },
  412: { code: 'precondition_failed', message: 'stale or missing If-Match' },
  422: { code: 'validation_failed', message: 'validation failed' },
  429: { code: 'rate_limited', message: 'rate limit exceeded' },
  500: { code: 'internal_error', message: 'internal failure' },
  503: { code: 'service_unavailable', message: 'service unavailable' },
};

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
