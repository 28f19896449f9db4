/**
 * The TestSandbox handle: every call is a request on the admin route, so one implementation drives an
 * in-process sandbox, a running `parcels sandbox serve` and a tenant of either alike.
 */
import { logFilterQuery } from '../schemas/log-filter.js';
import type { ClockStatus, FaultList, FaultRates, FaultRule, FaultRuleInput, LogEntry, LogPage, ScenarioRunView, Tenant } from '../schemas/sandbox-admin.js';
import type { AdminTarget } from './admin-client.js';
import { TestSandboxError, adminRequest } from './admin-client.js';
import { holdOpen, inCi } from './keep-open.js';
import type { Duration, LogsFilter, ScenarioName, TenantOptions } from './types.js';

export interface TestClock {
  /** Data time, epoch milliseconds. */
  now(): Promise<number>;
  status(): Promise<ClockStatus>;
  /** Moves data time forward by a duration (`'36h'`) or a number of milliseconds. */
  advance(by: Duration | number): Promise<ClockStatus>;
  /** Moves data time forward to `time` (epoch ms, Date or ISO 8601 text with a zone); never backwards (reset() goes back). */
  set(time: number | Date | string): Promise<ClockStatus>;
  freeze(): Promise<ClockStatus>;
  resume(): Promise<ClockStatus>;
  /** Runs data time `speed` times real time. */
  speed(speed: number): Promise<ClockStatus>;
}

export interface TestScenarios {
  list(): Promise<Array<{ name: string; description: string }>>;
  /** Starts a scenario for a parcel now, replacing its run (422 unknown_scenario for a name the sandbox does not know). */
  assign(entryId: string, scenario: ScenarioName): Promise<ScenarioRunView>;
  /** The parcel's run; undefined when it has none. */
  get(entryId: string): Promise<ScenarioRunView | undefined>;
}

export interface TestFaults {
  /** Aims a fault at the matching requests. */
  add(input: FaultRuleInput): Promise<FaultRule>;
  list(): Promise<FaultList>;
  /** Removes one rule (404 fault_not_found); resolves with it as it was. */
  remove(id: string): Promise<FaultRule>;
  /** Removes every rule and sets every rate to 0; resolves with the number of rules removed. */
  clear(): Promise<number>;
  setRates(rates: Partial<FaultRates>): Promise<FaultRates>;
}

export interface CloseOptions {
  /** A test of this file failed: with keepOpenOnFailure, the sandbox is kept open a while first. */
  failed?: boolean;
}

/** A sandbox (or a tenant of one) a test steers and inspects; each method is one admin request. */
export interface TestSandbox {
  /** Base URL of the API, e.g. http://127.0.0.1:54321 or, for a tenant, http://127.0.0.1:54321/t/orders. */
  readonly url: string;
  readonly adminToken: string;
  readonly clock: TestClock;
  readonly scenarios: TestScenarios;
  readonly faults: TestFaults;
  /** Request log entries, oldest first. Readable after close() for a sandbox this handle started. */
  logs(filter?: LogsFilter): Promise<LogEntry[]>;
  /** Empties the sandbox back to its seed: data, idempotency, rate-limit windows, scenario runs, faults, the clock (real time). */
  reset(): Promise<ClockStatus>;
  /** A new isolated tenant at `url + '/t/' + name`; its handle's close() removes it. */
  tenant(name: string, options?: TenantOptions): Promise<TestSandbox>;
  /** A fresh one-time login link of the web inspector (a tenant's handle: its sandbox's inspector). */
  inspectorLink(): Promise<string>;
  /** Marks this file as failed (for close()): e.g. from vitest's `onTestFailed`. */
  markFailed(): void;
  /**
   * Closes what this handle made (the in-process sandbox, or the tenant); a handle of a running
   * `serve` leaves it running. After a failure (`failed`, or markFailed()) and with keepOpenOnFailure
   * outside CI, first prints the inspector link to stderr and waits that long.
   */
  close(options?: CloseOptions): Promise<void>;
  /** close() for `await using`. */
  [Symbol.asyncDispose](): Promise<void>;
  /** The timeout to give the hook that calls close(): room for the keep-open wait when it can happen. */
  readonly closeTimeoutMs: number;
}

/** What differs between handles: how closing ends what they made, and where the log is read after it. */
export interface HandleLife {
  /** Ends what the handle made; undefined when it made nothing (a running `serve`). */
  end?: () => Promise<void>;
  /** The log after end(), read without the admin route (which is gone with the sandbox). */
  logsAfterEnd?: (filter: LogsFilter) => LogEntry[];
  /** keepOpenOnFailure in ms (0: off). */
  keepOpenMs: number;
  /** Where the inspector link comes from: a tenant's is its sandbox's (the inspector shows the sandbox itself). */
  inspectorLink?: () => Promise<string>;
}

/** Room for close() itself, beside any keep-open wait. */
const CLOSE_MS = 10_000;

function logQuery({ after, bodies, ...filter }: LogsFilter): Record<string, string | number | boolean | undefined> {
  return { after, bodies: bodies === true ? true : undefined, ...logFilterQuery(filter) };
}

function clockMove(target: AdminTarget, action: string, body: Record<string, unknown>): Promise<ClockStatus> {
  return adminRequest<ClockStatus>(target, 'POST', `clock/${action}`, body);
}

export function testSandboxHandle(target: AdminTarget, life: HandleLife): TestSandbox {
  const call = <T>(method: string, route: string, body?: unknown, query?: Record<string, string | number | boolean | undefined>) => adminRequest<T>(target, method, route, body, query);
  const parcelRoute = (entryId: string) => `parcels/${encodeURIComponent(entryId)}/scenario`;
  let failed = false;
  let ended = false;
  let closing: Promise<void> | undefined;
  const inspectorLink = life.inspectorLink ?? (async () => target.url + (await call<{ path: string }>('POST', 'ui/login')).path);
  const keepsOpen = life.end !== undefined && life.keepOpenMs > 0 && !inCi();

  const close = (options: CloseOptions = {}): Promise<void> => {
    closing ??= (async () => {
      if (keepsOpen && (failed || options.failed === true)) {
        const link = await inspectorLink().catch(() => undefined);
        await holdOpen(life.keepOpenMs, target.url, link);
      }
      await life.end?.();
      ended = true;
    })();
    return closing;
  };

  return {
    url: target.url,
    adminToken: target.adminToken,
    closeTimeoutMs: CLOSE_MS + (keepsOpen ? life.keepOpenMs : 0),
    clock: {
      now: async () => (await call<ClockStatus>('GET', 'clock')).now_ms,
      status: () => call<ClockStatus>('GET', 'clock'),
      advance: (by) => clockMove(target, 'advance', typeof by === 'number' ? { ms: by } : { by }),
      set: (time) => clockMove(target, 'set', { to: time instanceof Date ? time.toISOString() : time }),
      freeze: () => clockMove(target, 'freeze', {}),
      resume: () => clockMove(target, 'resume', {}),
      speed: (speed) => clockMove(target, 'speed', { speed }),
    },
    scenarios: {
      list: async () => (await call<{ scenarios: Array<{ name: string; description: string }> }>('GET', 'scenarios')).scenarios,
      assign: (entryId, scenario) => call<ScenarioRunView>('POST', parcelRoute(entryId), { scenario }),
      async get(entryId) {
        try {
          return await call<ScenarioRunView>('GET', parcelRoute(entryId));
        } catch (err) {
          if (err instanceof TestSandboxError && err.code === 'scenario_not_found') return undefined;
          throw err;
        }
      },
    },
    faults: {
      add: (input) => call<FaultRule>('POST', 'faults', input),
      list: () => call<FaultList>('GET', 'faults'),
      remove: async (id) => (await call<{ removed: FaultRule }>('DELETE', `faults/${encodeURIComponent(id)}`)).removed,
      clear: async () => (await call<{ removed: number }>('DELETE', 'faults')).removed,
      setRates: (rates) => call<FaultRates>('PUT', 'faults/rates', rates),
    },
    async logs(filter = {}) {
      if (ended && life.logsAfterEnd !== undefined) return life.logsAfterEnd(filter);
      return (await call<LogPage>('GET', 'logs', undefined, logQuery(filter))).entries;
    },
    reset: async () => (await call<{ clock: ClockStatus }>('POST', 'reset', {})).clock,
    async tenant(name, options = {}) {
      const made = await call<Tenant>('POST', 'tenants', { name, ...(options.seed === undefined ? {} : { seed: options.seed }) });
      return testSandboxHandle(
        { url: target.url + made.path, adminToken: target.adminToken },
        {
          end: async () => {
            await call('DELETE', `tenants/${encodeURIComponent(made.name)}`);
          },
          keepOpenMs: life.keepOpenMs,
          inspectorLink,
        },
      );
    },
    inspectorLink,
    markFailed() {
      failed = true;
    },
    close,
    [Symbol.asyncDispose]: () => close(),
  };
}
