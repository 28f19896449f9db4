/** The types `parcels/testing` adds to those of the admin route (src/schemas/sandbox-admin.ts, src/schemas/log-filter.ts). */
import type { BuiltinScenarioName } from '../schemas/scenarios.js';
import type { SeedObject } from '../sandbox/index.js';
import type { LogFilter } from '../schemas/log-filter.js';

/** A built-in scenario's name, or any other a scenario file defines. */
// `string & {}` keeps the built-in names as an editor's suggestions instead of widening them away.
export type ScenarioName = BuiltinScenarioName | (string & {});

type DurationUnit = 'ms' | 's' | 'm' | 'h' | 'd';
/** A duration as people write it, parsed by the admin route: `'90s'`, `'15m'`, `'36h'`, `'2d'`, `'1h30m'`. */
export type Duration = `${number}${DurationUnit}` | `${number}${DurationUnit}${number}${DurationUnit}`;

export interface TenantOptions {
  /** The tenant's organisations, keys and parcels; default: the sandbox's default seed. */
  seed?: SeedObject;
}

/** Which entries of the request log to read: the log's filters (every one given must match), after a sequence number, with headers and bodies. */
export interface LogsFilter extends LogFilter {
  /** Entries after this sequence number. */
  after?: number;
  /** With headers and bodies. */
  bodies?: boolean;
}
