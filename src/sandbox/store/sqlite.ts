import * as crypto from 'node:crypto';
import Database from 'better-sqlite3';
import type { DeliveredAddress } from '../../schemas/history.js';
import type { Scope } from '../../schemas/routes.js';
import type { SeedObject } from '../seed.js';
import type {
  AttemptRecord,
  DayCount,
  EventRecord,
  IdempotencyRecord,
  KeyRecord,
  ListQuery,
  OrgRecord,
  ParcelFields,
  ParcelRecord,
  Repository,
  UsageEntry,
} from './types.js';
import { OPTIONAL_PARCEL_FIELDS, REQUIRED_PARCEL_FIELDS } from './types.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS organisations (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, verified INTEGER NOT NULL,
  rl_requests INTEGER, rl_window_s INTEGER
);
CREATE TABLE IF NOT EXISTS couriers (
  org_id TEXT NOT NULL, code TEXT NOT NULL, name TEXT NOT NULL, PRIMARY KEY (org_id, code)
);
CREATE TABLE IF NOT EXISTS api_keys (
  key_hash BLOB PRIMARY KEY, org_id TEXT NOT NULL, scopes TEXT NOT NULL, expires_at INTEGER
);
CREATE TABLE IF NOT EXISTS parcels (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  entry_id TEXT NOT NULL UNIQUE,
  org_id TEXT NOT NULL,
  courier TEXT NOT NULL, country TEXT NOT NULL, postal_code TEXT NOT NULL, number TEXT NOT NULL,
  addition TEXT,
  parcel_length INTEGER, parcel_width INTEGER, parcel_height INTEGER, parcel_weight INTEGER,
  time_slot_period_start INTEGER, time_slot_period_end INTEGER, service_type INTEGER,
  status INTEGER NOT NULL DEFAULT 0,
  version INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS parcels_org_seq ON parcels (org_id, seq);
CREATE TABLE IF NOT EXISTS events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  event_id TEXT NOT NULL UNIQUE,
  parcel_seq INTEGER NOT NULL, org_id TEXT NOT NULL,
  status INTEGER NOT NULL, occurred_at INTEGER NOT NULL, recorded_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS events_parcel ON events (parcel_seq, seq);
CREATE INDEX IF NOT EXISTS events_org_recorded ON events (org_id, recorded_at);
CREATE TABLE IF NOT EXISTS attempts (
  parcel_seq INTEGER NOT NULL, attempt_no INTEGER NOT NULL, org_id TEXT NOT NULL,
  outcome INTEGER NOT NULL, reason INTEGER NOT NULL, time_attempt INTEGER NOT NULL,
  delivered TEXT, recorded_at INTEGER NOT NULL,
  PRIMARY KEY (parcel_seq, attempt_no)
);
CREATE INDEX IF NOT EXISTS attempts_org_recorded ON attempts (org_id, recorded_at);
CREATE TABLE IF NOT EXISTS idempotency (
  org_id TEXT NOT NULL, key TEXT NOT NULL,
  method TEXT NOT NULL, url TEXT NOT NULL, body_hash TEXT NOT NULL,
  status INTEGER NOT NULL, headers TEXT NOT NULL, body TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (org_id, key)
);
CREATE INDEX IF NOT EXISTS idempotency_created ON idempotency (created_at);
CREATE TABLE IF NOT EXISTS usage (
  id INTEGER PRIMARY KEY,
  org_id TEXT NOT NULL, method TEXT NOT NULL, path TEXT NOT NULL, status INTEGER NOT NULL, at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS usage_org_at ON usage (org_id, at);
`;

const PARCEL_FIELDS = [...REQUIRED_PARCEL_FIELDS, ...OPTIONAL_PARCEL_FIELDS] as const satisfies ReadonlyArray<keyof ParcelFields>;

interface AttemptRow {
  attempt_no: number;
  entry_id: string;
  outcome: number;
  reason: number;
  time_attempt: number;
  delivered: string | null;
  recorded_at: number;
}

// crypto.hash (one-shot, no Hash object) exists from Node 20.12; fall back to createHash before that.
const oneShot = (crypto as { hash?: (alg: string, data: string | Buffer, enc: 'buffer') => Buffer }).hash;

export function sha256(text: string | Buffer): Buffer {
  return oneShot ? oneShot('sha256', text, 'buffer') : crypto.createHash('sha256').update(text).digest();
}

/** Row counts of the multi-row usage INSERTs (a batch is written as a sum of these, largest first). */
const USAGE_BATCH_SIZES = [256, 64, 16, 4, 1] as const;

/** better-sqlite3 implementation of the repository; `path` is a file or ':memory:'. */
export class SqliteRepository implements Repository {
  private readonly db: Database.Database;
  // Prepared once; better-sqlite3 statements are reusable and synchronous.
  private readonly s;

  constructor(path: string) {
    this.db = new Database(path);
    if (path !== ':memory:') this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(SCHEMA);
    const db = this.db;
    const cols = PARCEL_FIELDS.join(', ');
    const params = PARCEL_FIELDS.map((f) => `@${f}`).join(', ');
    this.s = {
      upsertOrg: db.prepare(
        `INSERT INTO organisations (id, name, verified, rl_requests, rl_window_s) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, verified = excluded.verified,
           rl_requests = excluded.rl_requests, rl_window_s = excluded.rl_window_s`,
      ),
      upsertCourier: db.prepare(
        `INSERT INTO couriers (org_id, code, name) VALUES (?, ?, ?)
         ON CONFLICT (org_id, code) DO UPDATE SET name = excluded.name`,
      ),
      upsertKey: db.prepare(
        `INSERT INTO api_keys (key_hash, org_id, scopes, expires_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (key_hash) DO UPDATE SET org_id = excluded.org_id, scopes = excluded.scopes, expires_at = excluded.expires_at`,
      ),
      orgs: db.prepare('SELECT id, name, verified, rl_requests, rl_window_s FROM organisations ORDER BY id'),
      couriers: db.prepare('SELECT org_id, code, name FROM couriers ORDER BY org_id, code'),
      keys: db.prepare('SELECT key_hash, org_id, scopes, expires_at FROM api_keys'),
      insertParcel: db.prepare(
        `INSERT INTO parcels (entry_id, org_id, ${cols}, status, version, created_at, updated_at)
         VALUES (@entry_id, @org_id, ${params}, 0, 1, @now, @now)`,
      ),
      dataVersion: db.prepare('PRAGMA data_version').pluck(),
      getParcel: db.prepare('SELECT * FROM parcels WHERE entry_id = ? AND org_id = ?'),
      updateParcel: db.prepare(
        `UPDATE parcels SET ${PARCEL_FIELDS.map((f) => `${f} = @${f}`).join(', ')},
           version = version + 1, updated_at = @now WHERE seq = @seq`,
      ),
      setStatus: db.prepare('UPDATE parcels SET status = ?, version = version + 1, updated_at = ? WHERE seq = ?'),
      parcelBySeq: db.prepare('SELECT * FROM parcels WHERE seq = ?'),
      maxSeq: db.prepare('SELECT COALESCE(MAX(seq), 0) AS m FROM parcels'),
      insertEvent: db.prepare(
        'INSERT INTO events (event_id, parcel_seq, org_id, status, occurred_at, recorded_at) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      listEvents: db.prepare(
        `SELECT event_id, status, occurred_at, recorded_at FROM
           (SELECT seq, event_id, status, occurred_at, recorded_at FROM events WHERE parcel_seq = ? ORDER BY seq DESC LIMIT ?)
         ORDER BY seq ASC`,
      ),
      nextAttempt: db.prepare('SELECT COALESCE(MAX(attempt_no), 0) + 1 AS n FROM attempts WHERE parcel_seq = ?'),
      insertAttempt: db.prepare(
        `INSERT INTO attempts (parcel_seq, attempt_no, org_id, outcome, reason, time_attempt, delivered, recorded_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      listAttempts: db.prepare(
        `SELECT attempt_no, outcome, reason, time_attempt, delivered, recorded_at FROM attempts
         WHERE parcel_seq = ? ORDER BY attempt_no ASC`,
      ),
      byStatus: db.prepare('SELECT status, COUNT(*) AS n FROM parcels WHERE org_id = ? GROUP BY status'),
      byCourier: db.prepare('SELECT courier, COUNT(*) AS n FROM parcels WHERE org_id = ? GROUP BY courier'),
      countEvents: db.prepare('SELECT COUNT(*) AS n FROM events WHERE org_id = ?'),
      countAttempts: db.prepare('SELECT COUNT(*) AS n FROM attempts WHERE org_id = ?'),
      eventsPerDay: db.prepare(
        `SELECT date(recorded_at, 'unixepoch') AS date, COUNT(*) AS count FROM events
         WHERE org_id = ? AND recorded_at >= ? AND recorded_at < ? GROUP BY date ORDER BY date`,
      ),
      attemptsPerDay: db.prepare(
        `SELECT date(recorded_at, 'unixepoch') AS date, COUNT(*) AS count FROM attempts
         WHERE org_id = ? AND recorded_at >= ? AND recorded_at < ? GROUP BY date ORDER BY date`,
      ),
      plannedPerDay: db.prepare(
        `SELECT date(time_slot_period_start, 'unixepoch') AS date, COUNT(*) AS count FROM parcels
         WHERE org_id = ? AND status <> 4 AND time_slot_period_start >= ? AND time_slot_period_start < ?
         GROUP BY date ORDER BY date`,
      ),
      postcodeAreas: db.prepare(
        `SELECT substr(postal_code, 1, 2) AS area, COUNT(*) AS parcels FROM parcels
         WHERE org_id = ? AND country = 'NL' GROUP BY area ORDER BY area`,
      ),
      getIdem: db.prepare('SELECT * FROM idempotency WHERE org_id = ? AND key = ?'),
      putIdem: db.prepare(
        `INSERT OR REPLACE INTO idempotency (org_id, key, method, url, body_hash, status, headers, body, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      delIdem: db.prepare('DELETE FROM idempotency WHERE org_id = ? AND key = ?'),
      purgeIdem: db.prepare('DELETE FROM idempotency WHERE created_at < ?'),
      insertUsage: USAGE_BATCH_SIZES.map((n) =>
        db.prepare(`INSERT INTO usage (org_id, method, path, status, at) VALUES ${Array(n).fill('(?, ?, ?, ?, ?)').join(', ')}`),
      ),
      usagePerDay: db.prepare(
        `SELECT date(at, 'unixepoch') AS date, COUNT(*) AS requests, SUM(status >= 400) AS errors FROM usage
         WHERE org_id = ? AND at >= ? GROUP BY date ORDER BY date`,
      ),
      usageRecent: db.prepare(
        'SELECT method, path, status, at FROM usage WHERE org_id = ? AND at >= ? ORDER BY id DESC LIMIT ?',
      ),
      purgeUsage: db.prepare('DELETE FROM usage WHERE at < ?'),
    };
  }

  /**
   * BEGIN IMMEDIATE: takes the write lock up front, so check-and-write sequences are atomic even
   * when another process (e.g. `parcels --sandbox` next to `parcels sandbox serve`) shares the file.
   */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  /**
   * Parcels read by id are cached until this process changes them (entries are dropped on write)
   * or another connection commits (PRAGMA data_version changes, then the cache is cleared).
   */
  private readonly parcelCache = new Map<string, ParcelRecord>();
  private cacheDataVersion = -1;
  /** A read batch is open (see beginReadBatch). */
  private batching = false;
  /** data_version was checked since the current read batch began. */
  private versionChecked = false;

  /**
   * Until endReadBatch(), cached reads share one PRAGMA data_version check (the first read's)
   * instead of checking on every read. The caller promises that every read in the batch is for a
   * request that arrived before the batch began, so a commit another process made before such a
   * request arrived is still seen. Reads inside a transaction always check.
   */
  beginReadBatch(): void {
    this.batching = true;
    this.versionChecked = false;
  }

  /** The next cached read checks data_version again (the batch stays open). */
  recheckDataVersion(): void {
    this.versionChecked = false;
  }

  endReadBatch(): void {
    this.batching = false;
    this.versionChecked = false;
  }

  private freshCache(): Map<string, ParcelRecord> {
    if (this.parcelCache.size > 50_000) this.parcelCache.clear();
    if (this.versionChecked && !this.db.inTransaction) return this.parcelCache;
    const v = this.s.dataVersion.get() as number;
    if (v !== this.cacheDataVersion) {
      this.parcelCache.clear();
      this.cacheDataVersion = v;
    }
    this.versionChecked = this.batching;
    return this.parcelCache;
  }

  applySeed(seed: SeedObject): void {
    this.transaction(() => {
      for (const org of seed.organisations) {
        this.s.upsertOrg.run(org.id, org.name, org.verified === false ? 0 : 1, org.rate_limit?.requests ?? null, org.rate_limit?.window_s ?? null);
        for (const c of org.couriers) this.s.upsertCourier.run(org.id, c.code, c.name);
        for (const k of org.keys) this.s.upsertKey.run(sha256(k.key), org.id, JSON.stringify(k.scopes), k.expires_at ?? null);
      }
    });
  }

  loadOrganisations(): OrgRecord[] {
    const rows = this.s.orgs.all() as Array<{ id: string; name: string; verified: number; rl_requests: number | null; rl_window_s: number | null }>;
    const couriers = this.s.couriers.all() as Array<{ org_id: string; code: string; name: string }>;
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      verified: r.verified === 1,
      rateLimit: r.rl_requests !== null && r.rl_window_s !== null ? { requests: r.rl_requests, window_s: r.rl_window_s } : null,
      couriers: couriers.filter((c) => c.org_id === r.id).map((c) => ({ code: c.code, name: c.name })),
    }));
  }

  loadKeys(): KeyRecord[] {
    const rows = this.s.keys.all() as Array<{ key_hash: Buffer; org_id: string; scopes: string; expires_at: number | null }>;
    return rows.map((r) => ({ hash: r.key_hash, orgId: r.org_id, scopes: JSON.parse(r.scopes) as Scope[], expiresAt: r.expires_at }));
  }

  createParcel(orgId: string, entryId: string, fields: ParcelFields, now: number): ParcelRecord {
    const info = this.s.insertParcel.run({ ...fields, entry_id: entryId, org_id: orgId, now });
    return this.s.parcelBySeq.get(info.lastInsertRowid) as ParcelRecord;
  }

  getParcel(orgId: string, entryId: string): ParcelRecord | undefined {
    const cache = this.freshCache();
    const hit = cache.get(entryId);
    if (hit) return hit.org_id === orgId ? hit : undefined;
    const row = this.s.getParcel.get(entryId, orgId) as ParcelRecord | undefined;
    if (row) cache.set(entryId, Object.freeze(row));
    return row;
  }

  updateParcel(parcel: ParcelRecord, fields: ParcelFields, now: number): ParcelRecord {
    const values: Record<string, unknown> = { seq: parcel.seq, now };
    for (const f of PARCEL_FIELDS) values[f] = fields[f];
    this.parcelCache.delete(parcel.entry_id);
    this.s.updateParcel.run(values);
    return this.s.parcelBySeq.get(parcel.seq) as ParcelRecord;
  }

  setParcelStatus(parcel: ParcelRecord, status: number, now: number): ParcelRecord {
    this.parcelCache.delete(parcel.entry_id);
    this.s.setStatus.run(status, now, parcel.seq);
    return this.s.parcelBySeq.get(parcel.seq) as ParcelRecord;
  }

  maxParcelSeq(): number {
    return (this.s.maxSeq.get() as { m: number }).m;
  }

  listParcels(orgId: string, q: ListQuery): ParcelRecord[] {
    const where = ['org_id = ?', 'seq > ?', 'seq <= ?'];
    const args: unknown[] = [orgId, q.after, q.upTo];
    if (q.courier !== undefined) {
      where.push('courier = ?');
      args.push(q.courier);
    }
    if (q.status !== undefined) {
      where.push('status = ?');
      args.push(q.status);
    }
    args.push(q.limit);
    // Four shapes of this query exist; better-sqlite3 caches nothing itself, so keep them.
    const sql = `SELECT * FROM parcels WHERE ${where.join(' AND ')} ORDER BY seq ASC LIMIT ?`;
    let stmt = this.listCache.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.listCache.set(sql, stmt);
    }
    return stmt.all(...args) as ParcelRecord[];
  }
  private readonly listCache = new Map<string, Database.Statement>();

  addEvent(parcel: ParcelRecord, eventId: string, status: number, occurredAt: number, now: number): EventRecord {
    this.s.insertEvent.run(eventId, parcel.seq, parcel.org_id, status, occurredAt, now);
    return { event_id: eventId, entry_id: parcel.entry_id, status, occurred_at: occurredAt, recorded_at: now };
  }

  listEvents(parcel: ParcelRecord, limit: number): EventRecord[] {
    const rows = this.s.listEvents.all(parcel.seq, limit) as Array<Omit<EventRecord, 'entry_id'>>;
    return rows.map((r) => ({ event_id: r.event_id, entry_id: parcel.entry_id, status: r.status, occurred_at: r.occurred_at, recorded_at: r.recorded_at }));
  }

  addAttempt(
    parcel: ParcelRecord,
    input: { outcome: number; reason: number; time_attempt: number; delivered: DeliveredAddress | null },
    now: number,
  ): AttemptRecord {
    const n = (this.s.nextAttempt.get(parcel.seq) as { n: number }).n;
    const delivered = input.delivered === null ? null : JSON.stringify(input.delivered);
    this.s.insertAttempt.run(parcel.seq, n, parcel.org_id, input.outcome, input.reason, input.time_attempt, delivered, now);
    return { attempt_no: n, entry_id: parcel.entry_id, outcome: input.outcome, reason: input.reason, time_attempt: input.time_attempt, delivered: input.delivered, recorded_at: now };
  }

  listAttempts(parcel: ParcelRecord): AttemptRecord[] {
    const rows = this.s.listAttempts.all(parcel.seq) as Array<Omit<AttemptRow, 'entry_id'>>;
    return rows.map((r) => ({
      attempt_no: r.attempt_no,
      entry_id: parcel.entry_id,
      outcome: r.outcome,
      reason: r.reason,
      time_attempt: r.time_attempt,
      delivered: r.delivered === null ? null : (JSON.parse(r.delivered) as DeliveredAddress),
      recorded_at: r.recorded_at,
    }));
  }

  countParcelsByStatus(orgId: string): Map<number, number> {
    const rows = this.s.byStatus.all(orgId) as Array<{ status: number; n: number }>;
    return new Map(rows.map((r) => [r.status, r.n]));
  }

  countParcelsByCourier(orgId: string): Map<string, number> {
    const rows = this.s.byCourier.all(orgId) as Array<{ courier: string; n: number }>;
    return new Map(rows.map((r) => [r.courier, r.n]));
  }

  countEvents(orgId: string): number {
    return (this.s.countEvents.get(orgId) as { n: number }).n;
  }

  countAttempts(orgId: string): number {
    return (this.s.countAttempts.get(orgId) as { n: number }).n;
  }

  eventsPerDay(orgId: string, from: number, to: number): DayCount[] {
    return this.s.eventsPerDay.all(orgId, from, to) as DayCount[];
  }

  attemptsPerDay(orgId: string, from: number, to: number): DayCount[] {
    return this.s.attemptsPerDay.all(orgId, from, to) as DayCount[];
  }

  plannedPerDay(orgId: string, from: number, to: number): DayCount[] {
    return this.s.plannedPerDay.all(orgId, from, to) as DayCount[];
  }

  postcodeAreas(orgId: string): Array<{ area: string; parcels: number }> {
    return this.s.postcodeAreas.all(orgId) as Array<{ area: string; parcels: number }>;
  }

  getIdempotency(orgId: string, key: string): IdempotencyRecord | undefined {
    const row = this.s.getIdem.get(orgId, key) as
      | { method: string; url: string; body_hash: string; status: number; headers: string; body: string; created_at: number }
      | undefined;
    if (!row) return undefined;
    return {
      method: row.method,
      url: row.url,
      bodyHash: row.body_hash,
      response: { status: row.status, headers: JSON.parse(row.headers) as Record<string, string>, body: row.body },
      createdAt: row.created_at,
    };
  }

  putIdempotency(orgId: string, key: string, r: IdempotencyRecord): void {
    this.s.putIdem.run(orgId, key, r.method, r.url, r.bodyHash, r.response.status, JSON.stringify(r.response.headers), r.response.body, r.createdAt);
  }

  deleteIdempotency(orgId: string, key: string): void {
    this.s.delIdem.run(orgId, key);
  }

  purgeIdempotencyBefore(ts: number): void {
    this.s.purgeIdem.run(ts);
  }

  insertUsage(entries: readonly UsageEntry[]): void {
    if (entries.length === 0) return;
    this.transaction(() => {
      // Multi-row statements (one native call per statement instead of one per row).
      let i = 0;
      const args: Array<string | number> = [];
      for (let k = 0; k < USAGE_BATCH_SIZES.length; k++) {
        const n = USAGE_BATCH_SIZES[k] as number;
        const stmt = this.s.insertUsage[k] as Database.Statement;
        for (; i + n <= entries.length; i += n) {
          args.length = 0;
          for (let j = i; j < i + n; j++) {
            const e = entries[j] as UsageEntry;
            args.push(e.orgId, e.method, e.path, e.status, e.at);
          }
          stmt.run(args);
        }
      }
    });
  }

  usagePerDay(orgId: string, from: number): Array<{ date: string; requests: number; errors: number }> {
    return this.s.usagePerDay.all(orgId, from) as Array<{ date: string; requests: number; errors: number }>;
  }

  usageRecent(orgId: string, since: number, limit: number): Array<{ method: string; path: string; status: number; at: number }> {
    return this.s.usageRecent.all(orgId, since, limit) as Array<{ method: string; path: string; status: number; at: number }>;
  }

  purgeUsageBefore(ts: number): void {
    this.s.purgeUsage.run(ts);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
