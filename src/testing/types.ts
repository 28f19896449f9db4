/**
 * The shapes `parcels/testing` sends and reads on the admin route beside those of
 * src/schemas/sandbox-admin.ts: aimed faults, tenants and the log's filters (issue 32's shared
 * contract, docs/sandbox.md "Testing with parcels/testing"). Plain types: they are the package's
 * published types.
 */
import type { BuiltinScenarioName } from '../schemas/scenarios.js';
import type { SeedObject } from '../sandbox/index.js';

/** A built-in scenario's name (the table of src/sandbox/scenarios/builtin.ts holds exactly these), or any other a scenario file defines. */
// `string & {}` keeps the built-in names as an editor's suggestions instead of widening them away.
export type ScenarioName = BuiltinScenarioName | (string & {});

type DurationUnit = 'ms' | 's' | 'm' | 'h' | 'd';
/** A duration as people write it, parsed by the admin route: `'90s'`, `'15m'`, `'36h'`, `'2d'`, `'1h30m'`. */
export type Duration = `${number}${DurationUnit}` | `${number}${DurationUnit}${number}${DurationUnit}`;

/** Which requests an aimed fault matches and how it answers them (`POST /_sandbox/v1/faults`). */
export interface FaultRuleInput {
  /** The API route's name, e.g. `attempts.create`. */
  route?: string;
  method?: string;
  /** An exact path, without the query. */
  path?: string;
  /** Only this organisation's requests. */
  org?: string;
  /** The status to answer, 400 to 599; with `code` and `message` in the error envelope. */
  status?: number;
  code?: string;
  message?: string;
  retry_after_s?: number;
  latency_ms?: number;
  /** Drop the connection unanswered. */
  drop?: true;
  /** For the next `times` matching requests; omitted: until removed. */
  times?: number;
}

/** An aimed fault as the sandbox holds it. */
export interface FaultRule extends FaultRuleInput {
  /** `flt_<n>`. */
  id: string;
  /** Matches left; null for a rule kept until removed. */
  remaining: number | null;
  hits: number;
}

/** The dice of every request: its chances of failing or being dropped, and the latency added to each. */
export interface FaultRates {
  fail_rate: number;
  drop_rate: number;
  latency_ms: number;
  retry_after_s: number;
}

export interface FaultList {
  rules: FaultRule[];
  rates: FaultRates;
}

/** A tenant: an isolated sandbox served under `path` on the same port. */
export interface Tenant {
  name: string;
  /** `/t/<name>`. */
  path: string;
  created_at: string;
}

export interface TenantOptions {
  /** The tenant's organisations, keys and parcels; default: the sandbox's default seed. */
  seed?: SeedObject;
}

/** Which entries of the request log to read; every filter given must match. */
export interface LogFilter {
  /** Entries after this sequence number. */
  after?: number;
  /** With headers and bodies. */
  bodies?: boolean;
  /** The API route's name, e.g. `parcels.create`. */
  route?: string;
  method?: string;
  /** An exact path, without the query. */
  path?: string;
  /** A status (`503`) or a class (`'5xx'`). */
  status?: number | `${1 | 2 | 3 | 4 | 5}xx`;
  org?: string;
  idempotencyKey?: string;
}
