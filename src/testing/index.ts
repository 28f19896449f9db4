/**
 * `parcels/testing`: one typed handle for a sandbox a test steers — started in-process or a running
 * `parcels sandbox serve` — so one suite runs either way. docs/sandbox.md "Testing with parcels/testing".
 */
import type { SandboxOptions } from '../sandbox/index.js';
import { adminRequest } from './admin-client.js';
import type { TestSandbox } from './handle.js';
import { testSandboxHandle } from './handle.js';
import { keepOpenMs } from './keep-open.js';
import type { Duration } from './types.js';

export { TestSandboxError } from './admin-client.js';
export { KEEP_OPEN_MAX_MS } from './keep-open.js';
export type { CloseOptions, TestClock, TestFaults, TestSandbox, TestScenarios } from './handle.js';
export type { Duration, LogsFilter, ScenarioName, TenantOptions } from './types.js';
export type { LogFilter, StatusClass } from '../schemas/log-filter.js';
export type { ClockStatus, FaultList, FaultRates, FaultRule, FaultRuleInput, LogEntry, ScenarioRunView, Tenant } from '../schemas/sandbox-admin.js';
export type { SandboxOptions, SeedObject } from '../sandbox/index.js';

export interface KeepOpenOption {
  /**
   * After a failed test (close({ failed: true }) or markFailed()), keep the sandbox open this long
   * (`'10m'`, at most 1h) and print its inspector link to stderr before closing it. Never when `CI` is set.
   */
  keepOpenOnFailure?: Duration | number;
}

export type StartTestSandboxOptions = SandboxOptions & KeepOpenOption;

/** Starts a sandbox in this process (startSandbox from `parcels/sandbox`) and drives it over its own admin route. */
export async function startTestSandbox(options: StartTestSandboxOptions = {}): Promise<TestSandbox> {
  const { keepOpenOnFailure, ...sandboxOptions } = options;
  const keepOpen = keepOpenMs(keepOpenOnFailure);
  // Loaded here, not at the top: a suite against a running `serve` needs neither the server nor better-sqlite3.
  const { startSandbox } = await import('../sandbox/index.js');
  const sandbox = await startSandbox(sandboxOptions);
  if (sandbox.adminToken === undefined) {
    await sandbox.close();
    throw new RangeError('startTestSandbox needs the admin route: give adminToken when host is not a loopback address');
  }
  return testSandboxHandle(
    { url: sandbox.url, adminToken: sandbox.adminToken },
    { end: sandbox.close, logsAfterEnd: (filter) => sandbox.logs(filter), keepOpenMs: keepOpen },
  );
}

export interface ConnectOptions extends KeepOpenOption {
  /** Base URL of the running sandbox (what `parcels sandbox serve` printed), e.g. http://127.0.0.1:4010. */
  url: string;
  /** Its admin token (`parcels sandbox serve` wrote it to a 0600 file, or was given one). */
  adminToken: string;
}

/**
 * A handle of a running `parcels sandbox serve`: checks the URL and the token with one admin request.
 * Its close() leaves the sandbox running (a tenant's handle removes its tenant). Rejects with TestSandboxError.
 */
export async function connectTestSandbox(options: ConnectOptions): Promise<TestSandbox> {
  const keepOpen = keepOpenMs(options.keepOpenOnFailure);
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    throw new RangeError(`url must be an absolute http:// or https:// URL; got ${JSON.stringify(options.url)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RangeError(`url must be an http:// or https:// URL; got ${JSON.stringify(options.url)}`);
  if (url.search !== '' || url.hash !== '') throw new RangeError(`url must be a base URL without a query or fragment; got ${JSON.stringify(options.url)}`);
  const target = { url: url.href.replace(/\/+$/, ''), adminToken: options.adminToken };
  await adminRequest(target, 'GET', 'clock');
  return testSandboxHandle(target, { keepOpenMs: keepOpen });
}
