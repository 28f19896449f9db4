/**
 * Library entry of the sandbox: a faithful, stateful local implementation of the Parcel Delivery
 * Tracking API. `import { startSandbox } from 'parcels/sandbox'`.
 */
import { randomBytes } from 'node:crypto';
import type { App } from './app.js';
import type { AppOptions, TrackingOptions } from './app-options.js';
import { createApp } from './app.js';
import type { ClockStatus, FaultList, FaultRates, FaultRule, FaultRuleInput, LogEntry, ScenarioRunView, Tenant } from '../schemas/sandbox-admin.js';
import { TENANT_PREFIX } from '../schemas/sandbox-admin.js';
import type { TenantTable } from './tenants.js';
import type { FaultOptions } from './faults/index.js';
import type { LogFilter } from '../schemas/log-filter.js';
import type { LogSink } from './log-file.js';
import { LogFileWriter } from './log-file.js';
import type { RateLimitSpec, SeedObject } from './seed.js';
import type { ServerLimits } from './server.js';
import { listen } from './server.js';
import { isLoopbackHost, unbracketed } from '../schemas/host.js';

export { DEFAULT_SEED, DEMO_API_KEY, SeedError, loadSeed, validateSeed } from './seed.js';
export type { RateLimitSpec, SeedKey, SeedObject, SeedOrganisation, SeedParcel } from './seed.js';
export type { FaultOptions } from './faults/index.js';
export { FaultError } from './faults/index.js';
export type { TimeSources } from './clock.js';
export { manualTime } from './clock.js';
export type { ServerLimits } from './server.js';
export type { TrackingOptions } from './app-options.js';
export type { ClockStatus, FaultList, FaultRates, FaultRule, FaultRuleInput, JsonValue, LogEntry, ScenarioRunView, Tenant } from '../schemas/sandbox-admin.js';
export type { LogFilter, StatusClass } from '../schemas/log-filter.js';
export { MAX_TENANTS, TENANT_NAME } from '../schemas/sandbox-admin.js';
export { TenantError } from './tenants.js';
export type { TenantErrorCode } from './tenants.js';
export { UnknownScenarioError } from './scenarios/engine.js';
export type { ScenarioFile } from './scenarios/file.js';
export { ScenarioFileError, loadScenarioFile, parseScenarioFile } from './scenarios/file.js';
export { ClockError } from './testclock.js';
export { ADMIN_PREFIX } from './admin.js';
export { AdminTokenError } from './app.js';
export { INSPECTOR_PATH } from '../schemas/inspector.js';
export { DEFAULT_LIMITS, PortInUseError } from './server.js';
export { HEALTH_PATH } from './health.js';
export type { LogSink } from './log-file.js';
export { LogFileError } from './log-file.js';

export interface SandboxOptions extends Omit<AppOptions, 'adminToken' | 'tenantPath'> {
  /** Seed object or path of a seed JSON file; default DEFAULT_SEED. */
  // Spelled out, not AppOptions['seed']: that indexed type includes undefined, which a consumer's
  // exactOptionalPropertyTypes rejects in this interface's declaration (TS2430).
  seed?: SeedObject | string;
  /** SQLite file path or ':memory:' (default ':memory:'). */
  db?: string;
  /** Port to listen on; 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /**
   * Names a loopback listener answers for besides loopback names and its own address (a Host
   * header with any other name gets 403 host_not_allowed). Ignored on other listeners, which answer any name.
   */
  allowedHosts?: readonly string[];
  faults?: FaultOptions;
  /** Seconds added to the sandbox's clock (Date header, timestamps, the five-minute rule). */
  clockOffset?: number;
  /** Replaces the seed's top-level rate limit; false turns rate limiting off. */
  rateLimit?: RateLimitSpec | false;
  /** Oracle routes answer 503 oracle_unavailable. */
  oracleUnavailable?: boolean;
  /** Timeouts and the connection cap of the listener (defaults: DEFAULT_LIMITS). */
  limits?: ServerLimits;
  /** Tracking-level faults of scenario reports and the Date header. */
  tracking?: TrackingOptions;
  /**
   * The admin route's token (8+ characters). Without one, a random token is made on a loopback
   * listener, and the admin route is off on any other.
   */
  adminToken?: string;
  /**
   * Where the request log is written as it grows (`fs.createWriteStream(…)`): NDJSON, every entry
   * with its headers and bodies, redacted; written after each answer, never before it; ended by close().
   */
  logStream?: LogSink;
  /**
   * Work to finish once listening, before `GET /_sandbox/health` answers 200 (until then it answers
   * 503 `starting`): e.g. writing the admin token where clients look for it. When it rejects, the
   * sandbox is closed and startSandbox rejects with its error.
   */
  beforeReady?: (started: { url: string; adminToken: string | undefined }) => Promise<void>;
}

/** The test clock through the library handle; every call answers the clock's new status. */
export interface SandboxClockControl {
  /** Data time, epoch milliseconds. */
  now(): number;
  status(): ClockStatus;
  /** Moves data time forward by `ms` milliseconds. */
  advance(ms: number): ClockStatus;
  /** Moves data time forward to `time` (epoch ms, Date or ISO 8601 text); never backwards. */
  set(time: number | Date | string): ClockStatus;
  freeze(): ClockStatus;
  resume(): ClockStatus;
  setSpeed(speed: number): ClockStatus;
}

/** A tenant through the library handle: a whole sandbox of its own at `url` (the sandbox's URL + `/t/<name>`). */
export interface TenantSandbox extends Omit<RunningSandbox, 'tenants'> {
  name: string;
  /** Removes the tenant (as `tenants.remove(name)`); the sandbox that holds it keeps running. */
  close(): Promise<void>;
}

/** The tenants of a sandbox: created and removed at run time, served on its port under `/t/<name>`. */
export interface SandboxTenants {
  /**
   * Creates a tenant with its own in-memory data, organisations and keys (`seed`, else the sandbox's
   * seed), test clock, faults, rate limits and request log. Throws a TenantError (bad or taken name,
   * 64 tenants already) or a SeedError.
   */
  create(name: string, opts?: { seed?: SeedObject }): TenantSandbox;
  list(): Tenant[];
  /** Removes a tenant and closes its sandbox. Rejects with a TenantError when there is none of that name. */
  remove(name: string): Promise<Tenant>;
}

export interface RunningSandbox {
  /** Base URL, e.g. http://127.0.0.1:54321 (no trailing slash). */
  url: string;
  /**
   * Stops listening (health answers 503 `stopping` meanwhile), drops open connections, flushes usage,
   * closes the database and ends `logStream`. Safe to call unbound and twice. Rejects with a
   * LogFileError when the log stream could not be written.
   */
  close(): Promise<void>;
  /** Token of the admin route (/_sandbox/v1/…); undefined when the admin route is off. */
  adminToken: string | undefined;
  clock: SandboxClockControl;
  scenarios: {
    /** Built-in and custom scenario names. */
    list(): Array<{ name: string; description: string }>;
    /** Starts a scenario for a parcel (any organisation's) now, replacing its run. Throws UnknownScenarioError. */
    assign(entryId: string, scenario: string): ScenarioRunView;
    /** The parcel's run, if it has one. */
    get(entryId: string): ScenarioRunView | undefined;
  };
  /**
   * A fresh login link of the web inspector (`url` + `/_sandbox/ui/#code=…`): the code works once,
   * within an hour. Undefined when the admin route is off, and for a tenant (the inspector shows the sandbox itself).
   */
  inspectorLink(): string | undefined;
  /**
   * The request log: entries after `after` (oldest first) that pass the filters (all optional,
   * ANDed), headers and bodies only with `bodies`. Still readable after close(), e.g. to keep as a
   * failed test's artifact.
   */
  logs(opts?: LogsOptions): LogEntry[];
  faults: SandboxFaultControl;
  /**
   * Empties the sandbox back to its seed (parcels, events, attempts, idempotency records, usage,
   * scenario runs, rate-limit windows, faults) and sets its test clock back to real time: the only
   * way back from a moved clock. The request log stays. Answers the clock's status.
   */
  reset(): ClockStatus;
  tenants: SandboxTenants;
}

/** What `logs()` reads: entries after `after` that pass the filters, with headers and bodies when `bodies`. */
export interface LogsOptions extends LogFilter {
  after?: number;
  bodies?: boolean;
}

/**
 * Faults at run time (docs/sandbox.md, "Faults"): the same shapes as the admin route's
 * `/_sandbox/v1/faults`. A refused change throws FaultError (its `issues` name each field and rule).
 */
export interface SandboxFaultControl {
  /** Aims a fault at the matching requests: the next `times` of them, or until removed. */
  add(input: FaultRuleInput): FaultRule;
  list(): FaultList;
  /** Throws FaultError `fault_not_found` for an unknown id. */
  remove(id: string): { removed: FaultRule };
  /** Removes every aimed fault and sets every rate to 0; answers how many aimed faults went. */
  clear(): { removed: number };
  setRates(change: Partial<FaultRates>): FaultRates;
}

/** An explicit token, else a random one on a loopback listener, else none (admin route off). */
function adminTokenFor(host: string, explicit: string | undefined): string | undefined {
  if (explicit !== undefined) {
    if (explicit.length < 8 || /\s/.test(explicit)) throw new RangeError('adminToken must be at least 8 characters without spaces');
    return explicit;
  }
  return isLoopbackHost(host) ? `sbxadm_${randomBytes(24).toString('base64url')}` : undefined;
}

function toEpochMs(time: number | Date | string): number {
  if (typeof time === 'number') return time;
  if (time instanceof Date) return time.getTime();
  return Date.parse(time);
}

/**
 * Starts the sandbox and resolves once it listens and `beforeReady` is done (health then answers 200).
 * Rejects with SeedError (bad seed) or PortInUseError.
 */
export async function startSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  // `[::1]` as a URL writes it; listen wants `::1`.
  const host = unbracketed(opts.host ?? '127.0.0.1');
  const adminToken = adminTokenFor(host, opts.adminToken);
  const app = createApp({ ...opts, adminToken });
  const logFile = opts.logStream === undefined ? undefined : new LogFileWriter(app.log, opts.logStream);
  let listening;
  try {
    listening = await listen(app, host, opts.port ?? 0, opts.limits, opts.allowedHosts);
  } catch (err) {
    app.close();
    // The error to tell is the listener's; the log file's own, if any, comes second.
    await logFile?.close().catch(() => undefined);
    throw err;
  }
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    // A follower of the log is told the sandbox stops before its connection is dropped.
    closing ??= app
      .stopping()
      .then(() => listening.close())
      .then(() => app.close())
      .then(() => logFile?.close());
    return closing;
  };
  if (opts.beforeReady !== undefined) {
    try {
      await opts.beforeReady({ url: listening.url, adminToken });
    } catch (err) {
      await close().catch(() => undefined);
      throw err;
    }
  }
  app.ready();
  // The sandbox's own app always holds a tenant table; only a tenant's holds none.
  const tenants = app.tenants as TenantTable<App>;
  const tenantHandle = (name: string, tenantApp: App): TenantSandbox => ({
    ...handleOf(tenantApp, `${listening.url}${TENANT_PREFIX}${name}`, adminToken, async () => {
      if (tenants.get(name)?.app === tenantApp) await tenants.remove(name);
    }),
    inspectorLink: () => undefined,
    name,
  });
  return {
    ...handleOf(app, listening.url, adminToken, close),
    tenants: {
      create: (name, o = {}) => tenantHandle(name, tenants.create(name, o.seed).app),
      list: () => tenants.list(),
      remove: (name) => tenants.remove(name),
    },
  };
}

/** The library's handle of one sandbox's app (the sandbox's own, or a tenant's) served at `url`. */
function handleOf(app: App, url: string, adminToken: string | undefined, close: () => Promise<void>): Omit<RunningSandbox, 'tenants'> {
  const { testClock, scenarios, repo } = app;
  const parcel = (entryId: string) => {
    const found = repo.getParcelAnyOrg(entryId.toLowerCase());
    if (found === undefined) throw new RangeError(`no parcel with entry_id ${entryId}`);
    return found;
  };
  return {
    url,
    close,
    adminToken,
    clock: {
      now: () => testClock.status().now_ms,
      status: () => testClock.status(),
      advance: (ms) => testClock.advance(ms),
      set: (time) => testClock.set(toEpochMs(time)),
      freeze: () => testClock.freeze(true),
      resume: () => testClock.freeze(false),
      setSpeed: (speed) => testClock.setSpeed(speed),
    },
    scenarios: {
      list: () => scenarios.names(),
      assign(entryId, scenario) {
        const p = parcel(entryId);
        repo.transaction(() => scenarios.assign(p, scenario, testClock.status().now_ms));
        return scenarios.view(p) as ScenarioRunView;
      },
      get: (entryId) => scenarios.view(parcel(entryId)),
    },
    inspectorLink() {
      const path = app.inspectorLogin();
      return path === undefined ? undefined : url + path;
    },
    logs: ({ after = 0, bodies = false, ...filter } = {}) => app.log.entries(after, bodies, undefined, filter),
    faults: {
      add: (input) => app.faults.add(input),
      list: () => app.faults.list(),
      remove: (id) => ({ removed: app.faults.rules.remove(id) }),
      clear: () => ({ removed: app.faults.clear() }),
      setRates: (change) => app.faults.setRates(change),
    },
    reset: () => app.reset(),
  };
}
