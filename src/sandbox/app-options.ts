/** What a sandbox app is made from (createApp in app.ts): its seed, storage, clock, faults and settings. */
import type { TimeSources } from './clock.js';
import type { FaultOptions } from './faults/index.js';
import type { ScenarioFile } from './scenarios/file.js';
import type { TrackingFaultOptions } from './scenarios/types.js';
import type { RateLimitSpec, SeedObject } from './seed.js';

/** Tracking-level faults: those of scenario reports, and a Date header that drifts. */
export interface TrackingOptions extends TrackingFaultOptions {
  /** The Date header runs ahead by this many seconds per hour of elapsed time (negative: behind). */
  dateDriftSPerHour?: number;
}

export interface AppOptions {
  /** Seed object or path of a seed JSON file; default DEFAULT_SEED. */
  seed?: SeedObject | string;
  /** SQLite file path or ':memory:' (default). */
  db?: string;
  faults?: FaultOptions;
  /** Seconds added to this process's data time (on top of the stored test clock). */
  clockOffset?: number;
  /** Where the clock reads data and elapsed time (default: the system's); tests drive their own. */
  time?: TimeSources;
  /** Stop the stored test clock at start. */
  frozen?: boolean;
  /** Run the stored test clock this many times real time from the start. */
  speed?: number;
  /** Custom scenarios and rules: a scenario file's path or its parsed content. */
  scenarios?: string | ScenarioFile;
  /** Seeds the scenarios' random choices (default: the scenario file's seed, else 1). */
  scenarioSeed?: number;
  tracking?: TrackingOptions;
  /** The admin route's token; undefined turns the admin route off. */
  adminToken?: string;
  /** Requests kept in the request log (default 1000). */
  logSize?: number;
  /** Replaces the seed's top-level rate limit; `false` turns rate limiting off entirely. */
  rateLimit?: RateLimitSpec | false;
  /** Oracle routes answer 503 oracle_unavailable. */
  oracleUnavailable?: boolean;
  /** A tenant's app (tenants.ts), served under this path (`/t/<name>`): it holds no tenants of its own. */
  tenantPath?: string;
}
