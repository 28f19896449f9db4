import type { ApiClient } from './http.js';
import type { CodeNames } from '../schemas/codes.js';
import { isRecord } from '../schemas/record.js';

export type { CodeNames };

export type CodeKind = keyof CodeNames;

/** Reference codes change rarely; cached names are used for a day. */
export const CODE_NAMES_MAX_AGE_S = 86_400;

/** Where the names are kept between runs (src/config owns the files; this module only decides what to keep). */
export interface CodeNamesCache {
  /** A fresh cached value (at most CODE_NAMES_MAX_AGE_S old), or undefined. */
  read(name: string, maxAgeS: number): Promise<CodeNames | undefined>;
  write(name: string, names: CodeNames): Promise<void>;
}

/** The cache entry's name; the cache itself is kept per target (one service, or one sandbox database). */
const CODE_NAMES_CACHE_NAME = 'code-names';

/**
 * The service's names for its codes: cached ones when fresh, else one reference request (then
 * cached). With no client (a dry run sends nothing) or on any failure, no names: the spec's own
 * meanings serve, since names are a nicety.
 */
export async function loadCodeNames(input: {
  cache: CodeNamesCache;
  client: (() => Promise<ApiClient>) | undefined;
  signal?: AbortSignal;
}): Promise<CodeNames> {
  const name = CODE_NAMES_CACHE_NAME;
  const cached = await input.cache.read(name, CODE_NAMES_MAX_AGE_S);
  if (cached !== undefined || input.client === undefined) return cached ?? {};
  try {
    const names = parseCodeNames((await (await input.client()).route('reference.get', { signal: input.signal })).data);
    await input.cache.write(name, names);
    return names;
  } catch (error) {
    // A cancelled command stops here too; any other failure only costs the names.
    if (input.signal?.aborted === true) throw error;
    return {};
  }
}

const CODE_KEYS = ['code', 'value', 'id'];
const NAME_KEYS = ['name', 'label', 'description'];
const TYPE_KEYS = ['type', 'kind', 'category', 'group'];
const MAX_DEPTH = 6;

/** Which table a key (e.g. "parcel_statuses", "locationTypes", "service_codes") names, if any. */
export function kindOf(key: string): CodeKind | undefined {
  const k = key.toLowerCase();
  if (k.includes('location')) return 'location_type';
  if (k.includes('service')) return 'service_type';
  if (k.includes('outcome')) return 'outcome';
  if (k.includes('reason')) return 'reason';
  if (k.includes('status')) return 'status';
  return undefined;
}

function asCode(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) return Number(value);
  return undefined;
}

function firstString(record: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = record[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

function firstCode(record: Record<string, unknown>): number | undefined {
  for (const key of CODE_KEYS) {
    const code = asCode(record[key]);
    if (code !== undefined) return code;
  }
  return undefined;
}

/** A code table from one value: [{code,name}], {"0":"x"}, {"0":{name}}, or ["a","b"] (index = code). */
function tableFrom(value: unknown): Record<number, string> | undefined {
  const table: Record<number, string> = {};
  let found = 0;
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      if (typeof item === 'string' && item !== '') {
        table[index] = item;
        found++;
      } else if (isRecord(item)) {
        const code = firstCode(item);
        const name = firstString(item, NAME_KEYS);
        if (code !== undefined && name !== undefined) {
          table[code] = name;
          found++;
        }
      }
    });
  } else if (isRecord(value)) {
    for (const [key, item] of Object.entries(value)) {
      const code = asCode(key);
      if (code === undefined) continue;
      const name = typeof item === 'string' ? item : isRecord(item) ? firstString(item, NAME_KEYS) : undefined;
      if (name !== undefined && name !== '') {
        table[code] = name;
        found++;
      }
    }
  }
  return found > 0 ? table : undefined;
}

/**
 * Finds code tables anywhere in the reference payload, under keys mentioning
 * status/outcome/reason/location/service, in whatever shape they come. Unknown shapes are ignored;
 * the first table found for a kind wins, later ones only fill codes it lacks.
 */
export function parseCodeNames(referenceData: unknown): CodeNames {
  const out: Partial<Record<CodeKind, Record<number, string>>> = {};
  const add = (kind: CodeKind, table: Record<number, string>): void => {
    const target = (out[kind] ??= {});
    for (const [code, name] of Object.entries(table)) if (!(code in target)) target[Number(code)] = name;
  };

  const visit = (value: unknown, inherited: CodeKind | undefined, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    if (inherited) {
      const table = tableFrom(value);
      if (table) {
        add(inherited, table);
        return;
      }
    }
    if (Array.isArray(value)) {
      // A flat list of {type: "status", code, name} entries.
      for (const item of value) {
        if (!isRecord(item)) continue;
        const type = firstString(item, TYPE_KEYS);
        const kind = type === undefined ? undefined : kindOf(type);
        const code = firstCode(item);
        const name = firstString(item, NAME_KEYS);
        if (kind && code !== undefined && name !== undefined) add(kind, { [code]: name });
        else visit(item, inherited, depth + 1);
      }
      return;
    }
    if (!isRecord(value)) return;
    for (const [key, child] of Object.entries(value)) {
      visit(child, kindOf(key) ?? inherited, depth + 1);
    }
  };

  visit(referenceData, undefined, 0);
  return out;
}
