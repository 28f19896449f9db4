import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AdminDeps } from './admin.js';
import { adminFailure, handleAdmin } from './admin.js';
import { KeyRing, recognises } from './auth.js';
import { withAuthCache } from './auth-cache.js';
import type { SandboxClock } from './clock.js';
import { createClock } from './clock.js';
import { answerFavicon } from './favicon.js';
import { Faults } from './faults/index.js';
import { buildHandlers } from './handlers/index.js';
import type { HealthDeps, Readiness } from './health.js';
import { healthResponse } from './health.js';
import { InspectorAccess } from './inspector/access.js';
import type { InspectorDeps } from './inspector/handler.js';
import { handleInspector } from './inspector/handler.js';
import { inspectorLoginPath } from '../schemas/inspector.js';
import type { Arrived } from './intake.js';
import { RequestIntake } from './intake.js';
import { StopNotice } from './stop-notice.js';
import { AdminTokenError } from './errors.js';
import type { PipelineDeps } from './pipeline.js';
import { IDEMPOTENCY_RETENTION_S, runPipeline } from './pipeline.js';
import { RateLimiter } from './ratelimit.js';
import { LogRedactor } from './redact.js';
import { RequestLog } from './requestlog.js';
import type { SandboxResponse } from './envelope.js';
import { Responder } from './respond.js';
import type { OwnRoute } from './routes.js';
import { ownRoute } from './routes.js';
import { BUILTIN_RULES, BUILTIN_SCENARIOS } from './scenarios/builtin.js';
import { ScenarioEngine } from './scenarios/engine.js';
import { loadScenarioFile } from './scenarios/file.js';
import { DEFAULT_SEED, FALLBACK_RATE_LIMIT, loadSeed, validateSeed } from './seed.js';
import { applySeedParcels } from './seed-parcels.js';
import { withParcelCache } from './store/caching.js';
import { TenantTable } from './tenants.js';
import type { ClockStatus } from '../schemas/sandbox-admin.js';
import { openSqliteRepository } from './store/sqlite.js';
import type { Repository } from './store/types.js';
import { TestClock } from './testclock.js';
import { UsageRecorder } from './usage.js';
import { WriteBatcher } from './write-batch.js';

import type { AppOptions } from './app-options.js';

export type { AppOptions, TrackingOptions } from './app-options.js';
export { AdminTokenError } from './errors.js';

export interface App {
  /** The node:http request listener; `route`: the request's own route (routes.ts) when the listener has matched it already. */
  handle(req: IncomingMessage, res: ServerResponse, route?: OwnRoute): void;
  /** From now on /_sandbox/health answers 200 (it answers 503 `starting` until then). */
  ready(): void;
  readonly repo: Repository;
  readonly clock: SandboxClock;
  readonly testClock: TestClock;
  readonly scenarios: ScenarioEngine;
  readonly log: RequestLog;
  /** The fault rates and the aimed faults, changed at run time. */
  readonly faults: Faults;
  /** The tenants served under `/t/<name>` (tenants.ts); undefined in a tenant's own app. */
  readonly tenants: TenantTable<App> | undefined;
  /**
   * Empties the sandbox back to its seed: data, idempotency records, usage, scenario runs, rate-limit
   * windows, faults, and the test clock (real time again); the request log stays.
   */
  reset(): ClockStatus;
  /** A fresh one-time login link of the web inspector (path and fragment); undefined when the admin route is off. */
  inspectorLogin(): string | undefined;
  /**
   * Starts to stop: answers the log requests still waiting (`stopping: true`) and resolves once
   * those answers are written, before the listener drops its connections.
   */
  stopping(): Promise<void>;
  /** Flushes usage and closes the database. */
  close(): void;
}

const USAGE_RETENTION_S = 31 * 86_400;

function scenarioEngine(repo: Repository, opts: AppOptions): ScenarioEngine {
  const file = typeof opts.scenarios === 'string' ? loadScenarioFile(opts.scenarios) : opts.scenarios;
  return new ScenarioEngine(
    repo,
    {
      scenarios: new Map([...BUILTIN_SCENARIOS, ...(file?.scenarios ?? [])]),
      rules: [...(file?.rules ?? []), ...BUILTIN_RULES],
      seed: opts.scenarioSeed ?? file?.seed ?? 1,
    },
    opts.tracking ?? {},
  );
}

/** Builds the sandbox's request handler (no listening): storage, seed, test clock, scenarios, pipeline. */
export function createApp(opts: AppOptions = {}): App {
  const seed = typeof opts.seed === 'string' ? loadSeed(opts.seed) : validateSeed(opts.seed ?? DEFAULT_SEED);
  const faults = new Faults(opts.faults);
  const repo = withParcelCache(openSqliteRepository(opts.db ?? ':memory:'));
  let testClock: TestClock;
  let clock: SandboxClock;
  let scenarios: ScenarioEngine;
  try {
    scenarios = scenarioEngine(repo, opts);
    testClock = new TestClock(repo, opts.time ?? { wallMs: () => Date.now(), elapsedMs: () => performance.now() }, Math.round((opts.clockOffset ?? 0) * 1000));
    testClock.refresh();
    clock = createClock(opts.clockOffset ?? 0, opts.time, testClock);
    if (opts.speed !== undefined) testClock.setSpeed(opts.speed);
    if (opts.frozen === true) testClock.freeze(true);
    repo.applySeed(seed);
    applySeedParcels(repo, seed, clock.now());
    repo.purgeIdempotencyBefore(clock.now() - IDEMPOTENCY_RETENTION_S);
    repo.purgeUsageBefore(clock.now() - USAGE_RETENTION_S);
  } catch (err) {
    repo.close();
    throw err;
  }
  const usage = new UsageRecorder(repo);
  const stored = repo.loadKeys();
  const keys = withAuthCache(new KeyRing(repo.loadOrganisations(), stored));
  if (opts.adminToken !== undefined && recognises(keys, `Bearer ${opts.adminToken}`)) {
    repo.close();
    throw new AdminTokenError('the admin token is a customer API key of this sandbox; an admin token must be a secret of its own');
  }
  const secrets = [...seed.organisations.flatMap((o) => o.keys.map((k) => k.key)), ...(opts.adminToken === undefined ? [] : [opts.adminToken])];
  const log = new RequestLog(new LogRedactor(secrets, new Set(stored.map((k) => k.hash.toString('hex')))), opts.logSize);
  const writes = new WriteBatcher<SandboxResponse>(repo);
  const deps: PipelineDeps = {
    repo,
    clock,
    flushUsage: () => usage.flush(),
    oracleAvailable: opts.oracleUnavailable !== true,
    parcelCreated: (parcel, nowMs) => scenarios.assignByRule(parcel, nowMs),
    keys,
    limiter: new RateLimiter(() => testClock.skipped()),
    faults,
    usage,
    handlers: buildHandlers(clock.now),
    rateLimit: opts.rateLimit === false ? null : (opts.rateLimit ?? seed.rate_limit ?? FALLBACK_RATE_LIMIT),
    rateLimitEnabled: opts.rateLimit !== false,
    writes,
  };
  const closing = new AbortController();
  let readiness: Exclude<Readiness, 'stopping'> = 'starting';
  const startedElapsedMs = clock.elapsedMs();
  const health: HealthDeps = {
    readiness: () => (closing.signal.aborted ? 'stopping' : readiness),
    startedAtMs: (opts.time ?? { wallMs: () => Date.now() }).wallMs(),
    uptimeMs: () => clock.elapsedMs() - startedElapsedMs,
    clock: () => testClock.status(),
  };
  const access = new InspectorAccess(() => clock.elapsedMs());
  const loginLink = () => {
    const { code, expiresInS } = access.issueCode();
    return { path: inspectorLoginPath(code), expires_in_s: expiresInS };
  };
  // A tenant takes this sandbox's settings (scenarios, tracking faults, limits, admin token), not its state.
  const tenants =
    opts.tenantPath !== undefined
      ? undefined
      : new TenantTable<App>(
          (tenantSeed, path) => {
            const app = createApp({ ...opts, seed: tenantSeed ?? seed, db: ':memory:', frozen: undefined, speed: undefined, tenantPath: path });
            // Made while its sandbox listens: ready at once.
            app.ready();
            return app;
          },
          () => (opts.time ?? { wallMs: () => Date.now() }).wallMs(),
        );
  /** One place for everything a reset empties. */
  function reset(): ClockStatus {
    writes.flush();
    usage.flush();
    // One transaction: another process on the file sees the sandbox before or after, never empty of its seed.
    repo.transaction(() => {
      repo.emptyData();
      testClock.forget();
      scenarios.forget();
      repo.applySeed(seed);
      applySeedParcels(repo, seed, clock.now());
    });
    deps.limiter.clear();
    faults.restart();
    return testClock.status();
  }
  const admin: AdminDeps = { repo, testClock, scenarios, log, faults, keys, token: () => opts.adminToken, closing: closing.signal, inspectorLogin: loginLink, tenants, reset };
  const inspector: InspectorDeps = { ...admin, access, flushUsage: () => usage.flush(), now: () => clock.now() };
  const responder = new Responder(clock, log, opts.tracking?.dateDriftSPerHour ?? 0, () => testClock.changed(), () => opts.time?.wallMs() ?? Date.now(), opts.tenantPath);
  let closed = false;
  const stopNotice = new StopNotice(closing);

  /** Serves one request taken in by the intake, with its batch's change check. */
  function serve({ req, res, arrivedMs, route }: Arrived, version: number | undefined): void {
    if (route === 'admin') {
      stopNotice.arrived(req);
      void handleAdmin(req, admin).then((response) => {
        if (closed) {
          req.socket.destroy();
          return;
        }
        responder.answerOwn(req, res, response);
        stopNotice.answered(req, res);
      });
      return;
    }
    let nowMs: number;
    try {
      testClock.refresh(version);
      nowMs = clock.nowMs();
      scenarios.catchUp(nowMs, version);
    } catch (err) {
      // A busy database (another process applying the same steps) leaves them for the next request.
      if (process.env.PARCELS_SANDBOX_DEBUG) console.error(err);
      nowMs = clock.nowMs();
    }
    if (route === 'inspector') {
      void handleInspector(req, res, inspector);
      return;
    }
    // GET routes come back synchronously and are answered now; body routes wait for their body.
    // runPipeline never throws or rejects.
    const out = runPipeline(req, deps, { nowMs, elapsedMs: arrivedMs });
    if (out instanceof Promise) void out.then((o) => responder.deliver(req, res, o, arrivedMs));
    else responder.deliver(req, res, out, arrivedMs);
  }
  /**
   * One change check (the repository's dataVersion) per batch of requests read in a turn tells the
   * parcel cache, the test clock and the scenario runs whether another process committed since.
   */
  function changeCheck(): number | undefined {
    try {
      return repo.dataVersion();
    } catch (err) {
      if (process.env.PARCELS_SANDBOX_DEBUG) console.error(err);
      return undefined;
    }
  }
  const intake = new RequestIntake(changeCheck, serve);

  /** Answered at once, outside the intake's batches: the probe reads nothing the change check guards but the clock, which refreshes itself. */
  function answerHealth(req: IncomingMessage, res: ServerResponse): void {
    let response: SandboxResponse;
    try {
      response = healthResponse(health);
    } catch (err) {
      response = adminFailure(err);
    }
    responder.answerOwn(req, res, response);
  }

  return {
    repo,
    clock,
    testClock,
    scenarios,
    log,
    faults,
    tenants,
    reset,
    inspectorLogin: () => (opts.adminToken === undefined ? undefined : loginLink().path),
    handle(req, res, route = ownRoute(req)) {
      if (route === 'health') answerHealth(req, res);
      else if (route === 'favicon') answerFavicon(res);
      else intake.accept({ req, res, arrivedMs: clock.elapsedMs(), route });
    },
    ready: () => {
      readiness = 'ready';
    },
    stopping: () => Promise.all([stopNotice.stop(), tenants?.stopping()]).then(() => undefined),
    close() {
      if (closed) return;
      closed = true;
      tenants?.closeAll();
      closing.abort();
      intake.flush();
      writes.flush();
      usage.close();
      repo.close();
    },
  };
}

