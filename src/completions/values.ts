/**
 * The local values shell completion offers (profiles, cached couriers, code names, recent parcel
 * ids), read synchronously with plain fs: completion runs from the small fast-path bundle, must
 * answer within a few milliseconds and never waits on the network. Every reader returns nothing
 * rather than failing: a missing, unreadable or torn file only means fewer candidates.
 */
import { closeSync, fstatSync, readSync } from 'node:fs';
import { openOwnFile, readOwnFile } from '../config/own-file.js';
import { join } from 'node:path';
import { configDir, dataDir, defaultSandboxDb, knownIdsPath, profileFileName } from '../config/paths.js';
import { rememberedTargetId } from './target-ids.js';
import { isRecord } from '../schemas/record.js';
import { noteText, readNote } from '../schemas/parcel-note.js';

/** The cache entry of the last `parcels couriers` answer, kept per target like the code names. */
export const COURIERS_CACHE_NAME = 'couriers';

/** The target id (`targetId`) the caches of a command line's service are kept under: --sandbox, else its base URL. */
export function completionTarget(env: NodeJS.ProcessEnv, line: { sandbox: boolean; baseUrl: string | undefined }): string | undefined {
  if (line.sandbox) return rememberedTargetId(env, { sandboxDb: defaultSandboxDb(env) });
  return line.baseUrl === undefined ? undefined : rememberedTargetId(env, { baseUrl: line.baseUrl });
}

/**
 * Parcel ids are taken from the newest end of the ETag log only (about 200 lines): bounded work
 * however large it grew, and more ids than a shell would list.
 */
const ETAG_TAIL_BYTES = 16 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** One log line as etags.ts writes it (`JSON.stringify({ id, etag })`): the id, and whether it is a tombstone. */
const ETAG_LINE = /^\{"id":"([^"\\]+)","etag":(null)?/;

export interface ProfileView {
  current: string | undefined;
  names: string[];
  /** base_url per profile, as saved. */
  baseUrls: Record<string, string>;
}

function readJson(path: string): unknown {
  try {
    // Through the one opener: a FIFO or a link planted here is refused, never waited on.
    const text = readOwnFile(path);
    return text === undefined ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
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

function cached(env: NodeJS.ProcessEnv, target: string, name: string): unknown {
  const file = readJson(join(dataDir(env), 'cache', profileFileName(target), `${profileFileName(name)}.json`));
  return isRecord(file) ? file.data : undefined;
}

/** `{code, name}` of the couriers the last `parcels couriers` showed for this target. */
export function readCachedCouriers(env: NodeJS.ProcessEnv, target: string): { code: string; name?: string }[] {
  const data = cached(env, target, COURIERS_CACHE_NAME);
  if (!Array.isArray(data)) return [];
  return data.flatMap((c: unknown) =>
    isRecord(c) && typeof c.code === 'string' ? [{ code: c.code, ...(typeof c.name === 'string' ? { name: c.name } : {}) }] : [],
  );
}

/** The reference names cached for this target (by commands that show tables), whatever their age: names rarely change. */
export function readCachedCodeNames(env: NodeJS.ProcessEnv, target: string): Record<string, Record<string, string>> {
  const data = cached(env, target, 'code-names');
  if (!isRecord(data)) return {};
  const out: Record<string, Record<string, string>> = {};
  for (const [kind, table] of Object.entries(data)) {
    if (!isRecord(table)) continue;
    out[kind] = Object.fromEntries(Object.entries(table).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  }
  return out;
}

/** The newest `bytes` of a file, or undefined when it cannot be read. */
function tail(path: string, bytes: number): string | undefined {
  try {
    const fd = openOwnFile(path, 'read');
    try {
      const size = fstatSync(fd).size;
      const length = Math.min(size, bytes);
      const buffer = Buffer.alloc(length);
      readSync(fd, buffer, 0, length, size - length);
      return buffer.toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/** The id of a known-ids entry (`"id"` or `["id", status, postcode]`), before any other check. */
function entryId(entry: unknown): string | undefined {
  if (typeof entry === 'string') return entry;
  return Array.isArray(entry) && typeof entry[0] === 'string' ? entry[0] : undefined;
}

/**
 * Parcel ids of this target starting with `prefix`, most recent first, at most `max`: those of the
 * ETag log (parcels read, created or changed here), then those recent output showed
 * (src/config/known-ids.ts, newest last), each with what is known of it (its checked status and
 * postcode: src/schemas/parcel-note.ts). Only the ids returned are checked and described: the
 * files hold over a thousand ids, and describing them all cost ~20 ms of CPU on every key press.
 */
export function readRecentParcelIds(env: NodeJS.ProcessEnv, target: string, prefix: string, max: number): { id: string; description?: string }[] {
  const latest = new Map<string, boolean>();
  // Matched, not parsed: a few hundred JSON.parse calls would be most of completion's time. The
  // first line of a tail may be cut; it does not match and is skipped like a torn line.
  for (const line of (tail(join(dataDir(env), 'etags', `${profileFileName(target)}.log`), ETAG_TAIL_BYTES) ?? '').split('\n')) {
    const match = ETAG_LINE.exec(line);
    if (match?.[1] === undefined) continue;
    latest.delete(match[1]);
    latest.set(match[1], match[2] === undefined);
  }
  const touched = [...latest]
    .filter(([id, live]) => live && id.startsWith(prefix))
    .map(([id]) => id)
    .reverse()
    .slice(0, max);
  const fromLog = new Set(touched);
  const shown = readJson(knownIdsPath(env, target));
  const entries: unknown[] = Array.isArray(shown) ? shown : [];
  const said = new Map<string, string | undefined>();
  const listed: string[] = [];
  // Newest first; an id of the ETag log is looked up for its description however far back it is.
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    const id = entryId(entry);
    if (id === undefined || said.has(id) || !id.startsWith(prefix)) continue;
    if (!fromLog.has(id) && touched.length + listed.length >= max) continue;
    const note = readNote(entry);
    if (note === undefined || !UUID.test(id)) continue;
    said.set(id, noteText(note));
    if (!fromLog.has(id)) listed.push(id);
  }
  return [...touched, ...listed].map((id) => {
    const description = said.get(id);
    return description === undefined ? { id } : { id, description };
  });
}
