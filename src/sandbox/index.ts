/**
 * Library entry of the sandbox: a faithful, stateful local implementation of the Parcel Delivery
 * Tracking API. `import { startSandbox } from 'parcels/sandbox'`.
 */
import type { AppOptions } from './app.js';
import { createApp } from './app.js';
import type { FaultOptions } from './faults.js';
import type { RateLimitSpec } from './seed.js';
import type { ServerLimits } from './server.js';
import { DEFAULT_LIMITS, listen } from './server.js';

export { DEFAULT_SEED, DEMO_API_KEY, SeedError, loadSeed, validateSeed } from './seed.js';
export type { RateLimitSpec, SeedKey, SeedObject, SeedOrganisation } from './seed.js';
export type { FaultOptions } from './faults.js';
export type { TimeSources } from './clock.js';
export { manualTime } from './clock.js';
export type { ServerLimits } from './server.js';
export { DEFAULT_LIMITS, PortInUseError } from './server.js';

export interface SandboxOptions extends AppOptions {
  /** Seed object or path of a seed JSON file; default DEFAULT_SEED. */
  seed?: AppOptions['seed'];
  /** SQLite file path or ':memory:' (default ':memory:'). */
  db?: string;
  /** Port to listen on; 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  faults?: FaultOptions;
  /** Seconds added to the sandbox's clock (Date header, timestamps, the five-minute rule). */
  clockOffset?: number;
  /** Replaces the seed's top-level rate limit; false turns rate limiting off. */
  rateLimit?: RateLimitSpec | false;
  /** Oracle routes answer 503 oracle_unavailable. */
  oracleUnavailable?: boolean;
  /** Timeouts and the connection cap of the listener (defaults: DEFAULT_LIMITS). */
  limits?: ServerLimits;
}

export interface RunningSandbox {
  /** Base URL, e.g. http://127.0.0.1:54321 (no trailing slash). */
  url: string;
  /** Stops listening, drops open connections, flushes usage and closes the database. Safe to call unbound and twice. */
  close(): Promise<void>;
}

/** A socket waiting out the latency fault is silent, not idle: the idle timeout is kept longer than the delay. */
function idleOutlastsLatency(limits: ServerLimits, latencyMs: number): ServerLimits {
  const idle = limits.idleTimeoutMs ?? DEFAULT_LIMITS.idleTimeoutMs;
  return latencyMs < idle ? limits : { ...limits, idleTimeoutMs: latencyMs + 1000 };
}

/** Starts the sandbox and resolves once it listens. Rejects with SeedError (bad seed) or PortInUseError. */
export async function startSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  const app = createApp(opts);
  let listening;
  try {
    listening = await listen(app, opts.host ?? '127.0.0.1', opts.port ?? 0, idleOutlastsLatency(opts.limits ?? {}, opts.faults?.latencyMs ?? 0));
  } catch (err) {
    app.close();
    throw err;
  }
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= listening.close().then(() => app.close());
    return closing;
  };
  return { url: listening.url, close };
}
