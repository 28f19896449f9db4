/**
 * The local values shell completion offers (profiles, cached couriers, code names, recent parcel
 * ids), read synchronously with plain fs: completion runs from the small fast-path bundle, must
 * answer within a few milliseconds and never waits on the network. Every reader returns nothing
 * rather than failing: a missing, unreadable or torn file only means fewer candidates.
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { configDir, dataDir, profileFileName } from './paths.js';

/** What the cache of a `parcels couriers` answer is called: one per profile and target. */
export function couriersCacheName(target: string): string {
  return `couriers-${target}`;
}

/** The target a command's requests go to, as the couriers cache names it: `sandbox` for --sandbox. */
export const SANDBOX_TARGET = 'sandbox';

/** Parcel ids are taken from the newest end of the ETag log only: bounded work however large it grew. */
const ETAG_TAIL_BYTES = 64 * 1024;

export interface ProfileView {
  current: string | undefined;
  names: string[];
  /** base_url per profile, as saved. */
  baseUrls: Record<string, string>;
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function readProfiles(env: NodeJS.ProcessEnv): ProfileView {
  const file = readJson(join(configDir(env), 'config.json'));
  const view: ProfileView = { current: undefined, names: [], baseUrls: {} };
  if (!isRecord(file)) return view;
  if (typeof file.current_profile === 'string') view.current = file.current_profile;
  if (isRecord(file.profiles)) {
    for (const [name, profile] of Object.entries(file.profiles)) {
      view.names.push(name);
      if (isRecord(profile) && typeof profile.base_url === 'string') view.baseUrls[name] = profile.base_url;
    }
  }
  return view;
}

function cacheData(path: string): unknown {
  const file = readJson(path);
  return isRecord(file) ? file.data : undefined;
}

/** `{code, name}` of the couriers the last `parcels couriers` showed for this profile and target. */
export function readCachedCouriers(env: NodeJS.ProcessEnv, profile: string, target: string): { code: string; name?: string }[] {
  const data = cacheData(join(dataDir(env), 'cache', profileFileName(profile), `${profileFileName(couriersCacheName(target))}.json`));
  if (!Array.isArray(data)) return [];
  return data.flatMap((c: unknown) =>
    isRecord(c) && typeof c.code === 'string' ? [{ code: c.code, ...(typeof c.name === 'string' ? { name: c.name } : {}) }] : [],
  );
}

/**
 * The newest cached reference names of this profile (`code-names-*`, written by commands that show
 * tables). Its file name hashes the base URL; completion does not load node:crypto for it, and code
 * names are the same whichever target of a profile gave them.
 */
export function readCachedCodeNames(env: NodeJS.ProcessEnv, profile: string): Record<string, Record<string, string>> {
  const dir = join(dataDir(env), 'cache', profileFileName(profile));
  let newest: { at: number; data: unknown } | undefined;
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.startsWith('code-names-') && n.endsWith('.json'));
  } catch {
    return {};
  }
  for (const name of names) {
    const file = readJson(join(dir, name));
    if (isRecord(file) && typeof file.written_at === 'number' && (newest === undefined || file.written_at > newest.at)) {
      newest = { at: file.written_at, data: file.data };
    }
  }
  if (!isRecord(newest?.data)) return {};
  const out: Record<string, Record<string, string>> = {};
  for (const [kind, table] of Object.entries(newest.data)) {
    if (!isRecord(table)) continue;
    out[kind] = Object.fromEntries(Object.entries(table).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  }
  return out;
}

/** Parcel ids of this profile's ETag log, most recently touched first. */
export function readRecentParcelIds(env: NodeJS.ProcessEnv, profile: string): string[] {
  let text: string;
  try {
    const fd = openSync(join(dataDir(env), 'etags', `${profileFileName(profile)}.log`), 'r');
    try {
      const size = fstatSync(fd).size;
      const length = Math.min(size, ETAG_TAIL_BYTES);
      const buffer = Buffer.alloc(length);
      readSync(fd, buffer, 0, length, size - length);
      text = buffer.toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return [];
  }
  const latest = new Map<string, boolean>();
  // The first line of a tail may be cut: it fails to parse and is skipped like a torn line.
  for (const line of text.split('\n')) {
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isRecord(entry) || typeof entry.id !== 'string') continue;
    latest.delete(entry.id);
    latest.set(entry.id, entry.etag !== null);
  }
  return [...latest].filter(([, live]) => live).map(([id]) => id).reverse();
}
