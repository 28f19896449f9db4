/**
 * Library entry of the sandbox: a faithful, stateful local implementation of the Parcel Delivery
 * Tracking API. `import { startSandbox } from 'parcels/sandbox'`.
 */
import { randomBytes } from 'node:crypto';
import type { App } from './app.js';
import type { AppOptions, TrackingOptions } from './app-options.js';
import { createApp } from './app.js';
import type { RunningSandbox, TenantSandbox } from './handle.js';
import { handleOf } from './handle.js';
import { TENANT_PREFIX } from '../schemas/sandbox-admin.js';
import type { TenantTable } from './tenants.js';
import type { FaultOptions } from './faults/index.js';
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
export type { LogsOptions, RunningSandbox, SandboxClockControl, SandboxFaultControl, SandboxTenants, TenantSandbox } from './handle.js';

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

/** An explicit token, else a random one on a loopback listener, else none (admin route off). */
function adminTokenFor(host: string, explicit: string | undefined): string | undefined {
  if (explicit !== undefined) {
    if (explicit.length < 8 || /\s/.test(explicit)) throw new RangeError('adminToken must be at least 8 characters without spaces');
    return explicit;
  }
  return isLoopbackHost(host) ? `sbxadm_${randomBytes(24).toString('base64url')}` : undefined;
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
