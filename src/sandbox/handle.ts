/** The library's handle of a running sandbox (or of one of its tenants): its types and how it is made from the app. */
import type { App } from './app.js';
import type { ClockStatus, FaultList, FaultRates, FaultRule, FaultRuleInput, LogEntry, ScenarioRunView, Tenant } from '../schemas/sandbox-admin.js';
import type { LogFilter } from '../schemas/log-filter.js';
import type { SeedObject } from './seed.js';

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

function toEpochMs(time: number | Date | string): number {
  if (typeof time === 'number') return time;
  if (time instanceof Date) return time.getTime();
  return Date.parse(time);
}

/** The library's handle of one sandbox's app (the sandbox's own, or a tenant's) served at `url`. */
export function handleOf(app: App, url: string, adminToken: string | undefined, close: () => Promise<void>): Omit<RunningSandbox, 'tenants'> {
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
