/**
 * The values completion offers for a flag or a positional argument: code names built in from the
 * spec, and what the local caches of the command's target hold (profiles, couriers, reference
 * names, parcel ids).
 */
import { ORACLE_METRICS } from '../schemas/oracle-metrics.js';
import type { FlagInfo, Line } from './parse-line.js';
import { OUTPUT_FORMATS } from '../io/output-format.js';
import { OUTCOME_NAMES, REASON_NAMES, STATUS_NAMES } from '../schemas/codes.js';
import { ROUTES } from '../schemas/routes.js';
import { FAULT_STATUS_DEFAULTS } from '../schemas/sandbox-admin.js';
import type { FlagName } from '../schemas/flag-name.js';

export interface Candidate {
  value: string;
  description?: string;
}

/** Where values come from; the fast path passes readers of the local caches. */
export interface ValueSources {
  env: NodeJS.ProcessEnv;
  profiles(): { current: string | undefined; names: string[]; baseUrls: Record<string, string> };
  /** The id per-target caches are kept under, for --sandbox or a base URL; undefined without either. */
  targetKey(line: { sandbox: boolean; baseUrl: string | undefined }): string | undefined;
  couriers(target: string): { code: string; name?: string }[];
  /**
   * Asks the service for its couriers (which caches them), when none are cached yet: `where` are
   * the command line's target flags. Short and silent: nothing happens on failure.
   */
  fetchCouriers?(where: readonly string[]): void;
  codeNames(target: string): Record<string, Record<string, string>>;
  /** The parcel ids starting with `prefix`, most recent first, at most `max`. */
  parcelIds(target: string, prefix: string, max: number): { id: string; description?: string }[];
}

/** The four scopes, as the spec's route table names them. */
const SCOPES = [...new Set(ROUTES.map((route) => route.scope))];
const SHELLS = ['bash', 'zsh', 'fish'];
const HTTP_METHODS = ['GET', 'POST', 'PATCH'];
/** `config set` keys; the same list as SETTABLE_KEYS in src/config/store.ts (a test checks), which loads zod. */
export const CONFIG_KEYS = ['output', 'timeout', 'retries', 'base_url', 'bulk_matched_lines', 'sandbox', 'queue_writes'];
/** A shell shows every candidate; past this many parcel ids the list stops helping. */
const MAX_IDS = 50;

function named(table: Readonly<Record<string | number, string>>, max?: number): Candidate[] {
  return Object.entries(table)
    .filter(([code]) => max === undefined || Number(code) <= max)
    .map(([code, name]) => ({ value: name, description: `code ${code}` }));
}

function codes(table: Readonly<Record<string, string>> | undefined): Candidate[] {
  return Object.entries(table ?? {}).map(([code, name]) => ({ value: code, description: name }));
}

/** The cache key of the service the completed command would talk to: flag, environment, profile. */
function targetKey(line: Line, sources: ValueSources): string | undefined {
  if (line.sandbox) return sources.targetKey({ sandbox: true, baseUrl: undefined });
  const view = sources.profiles();
  const profile = line.profile || sources.env.PARCELS_PROFILE || view.current || 'default';
  return sources.targetKey({ sandbox: false, baseUrl: line.baseUrl || sources.env.PARCELS_BASE_URL || view.baseUrls[profile] });
}

/** Values some cache of the target holds; none when there is no target. */
function fromTarget<T>(line: Line, sources: ValueSources, read: (target: string) => T[]): T[] {
  const key = targetKey(line, sources);
  return key === undefined ? [] : read(key);
}

/** The reference names of one kind (`status`, `location_type`) cached for the target. */
function cachedNames(line: Line, sources: ValueSources, kind: string): Record<string, string> {
  const key = targetKey(line, sources);
  return key === undefined ? {} : (sources.codeNames(key)[kind] ?? {});
}

type FlagValueReader = (line: Line, sources: ValueSources) => Candidate[];

/** Where a flag's values come from, by its name (a flag that exists: FlagName); any other flag offers its `choices`. */
export const VALUES_BY_FLAG: Readonly<Partial<Record<FlagName, FlagValueReader>>> = {
  '--profile': (_line, sources) => sources.profiles().names.map((value) => ({ value })),
  '--require-scope': () => SCOPES.map((value) => ({ value })),
  '--status': (line, sources) => {
    // An aimed fault's --status is an HTTP status: those of the spec's error table.
    if (line.command?.path.join(' ') === 'sandbox faults') return Object.entries(FAULT_STATUS_DEFAULTS).map(([value, { code }]) => ({ value, description: code }));
    // Names for statuses 4 and 5 come only from a cached reference answer; events take 0–3.
    const events = line.command?.path.join(' ') === 'events add';
    return named({ ...cachedNames(line, sources, 'status'), ...STATUS_NAMES }, events ? 3 : 5);
  },
  '--route': () => ROUTES.map((r) => ({ value: r.name, description: `${r.method} ${r.path}` })),
  '--method': () => HTTP_METHODS.map((value) => ({ value })),
  '--path': () => routePaths(),
  '--outcome': () => named(OUTCOME_NAMES),
  '--reason': () => named(REASON_NAMES),
  '--delivered-location-type': (line, sources) => codes(cachedNames(line, sources, 'location_type')),
  '--service-type': (line, sources) => codes(cachedNames(line, sources, 'service_type')),
  '--courier': (line, sources) => {
    let couriers = fromTarget(line, sources, sources.couriers);
    if (couriers.length === 0 && sources.fetchCouriers !== undefined && targetKey(line, sources) !== undefined) {
      sources.fetchCouriers(line.where);
      couriers = fromTarget(line, sources, sources.couriers);
    }
    return couriers.map((c) => ({ value: c.code, ...(c.name === undefined ? {} : { description: c.name }) }));
  },
};

export function flagValues(flag: FlagInfo, line: Line, sources: ValueSources): Candidate[] {
  const read = VALUES_BY_FLAG[flag.long];
  return read === undefined ? (flag.choices ?? []).map((value) => ({ value })) : read(line, sources);
}

/** `current`: the word being completed; parcel ids are matched against it before the newest MAX_IDS are kept. */
export function argumentValues(line: Line, sources: ValueSources, current = ''): Candidate[] {
  const command = line.command;
  if (command === undefined) return [];
  // Required (<id>) and optional ([id]) arguments alike.
  const args = (command.args ?? '').match(/[<[][\w-]+[>\]]/g) ?? [];
  const listed = command.argValues?.[line.words.length];
  if (listed !== undefined) return Object.entries(listed.values).map(([value, description]) => ({ value, description }));
  const arg = args[line.words.length]?.slice(1, -1);
  if (arg === 'id') {
    // Matched first, then cut: a prefix of an older id (one `parcels get 3f1c9a2b` resolves) is still offered.
    const ids = fromTarget(line, sources, (target) => sources.parcelIds(target, current, MAX_IDS));
    return ids.map(({ id, description }) => (description === undefined ? { value: id } : { value: id, description }));
  }
  if (arg === 'metric') return ORACLE_METRICS.map((value) => ({ value }));
  if (arg === 'shell') return SHELLS.map((value) => ({ value }));
  if (arg === 'method') return HTTP_METHODS.map((value) => ({ value }));
  if (arg === 'path') return routePaths();
  if (arg === 'key') return CONFIG_KEYS.map((value) => ({ value }));
  if (arg === 'value' && line.words.at(-1) === 'output') return OUTPUT_FORMATS.map((value) => ({ value }));
  return [];
}

/**
 * The spec's route paths, each with the methods it takes. A template's parameter (`{id}`) is the
 * user's to type: its path is offered up to the parameter (`/deliveries/v1/parcels/`), a word every
 * shell takes as it is, and the description names the templates that continue it.
 */
function routePaths(): Candidate[] {
  const methods = new Map<string, string[]>();
  for (const route of ROUTES) methods.set(route.path, [...(methods.get(route.path) ?? []), route.method]);
  const continuations = new Map<string, string[]>();
  for (const [path, list] of methods) {
    const open = path.indexOf('{');
    const value = open === -1 ? path : path.slice(0, open);
    const said = open === -1 ? list.join(', ') : `${path.slice(open)} ${list.join(', ')}`;
    continuations.set(value, [...(continuations.get(value) ?? []), said]);
  }
  return [...continuations].map(([value, said]) => ({ value, description: said.join('; ') }));
}
