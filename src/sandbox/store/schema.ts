import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { RECENT_KEPT } from './usage.js';

/**
 * Tables and indexes; every statement is idempotent, so opening an existing file migrates nothing away.
 * Parcels and events are never deleted, so their `seq` (rowid: the largest so far + 1) only grows
 * without AUTOINCREMENT's extra write per insert; scenario runs are replaced, so theirs keeps it.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value BLOB NOT NULL);
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
  seq INTEGER PRIMARY KEY,
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
  seq INTEGER PRIMARY KEY,
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
CREATE TABLE IF NOT EXISTS usage_days (
  org_id TEXT NOT NULL, day INTEGER NOT NULL, requests INTEGER NOT NULL, errors INTEGER NOT NULL,
  PRIMARY KEY (org_id, day)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS usage_recent (
  org_id TEXT NOT NULL, slot INTEGER NOT NULL, seq INTEGER NOT NULL,
  method TEXT NOT NULL, path TEXT NOT NULL, status INTEGER NOT NULL, at INTEGER NOT NULL,
  PRIMARY KEY (org_id, slot)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS scenario_runs (
  run_no INTEGER PRIMARY KEY AUTOINCREMENT,
  parcel_seq INTEGER NOT NULL UNIQUE, org_id TEXT NOT NULL, entry_id TEXT NOT NULL,
  scenario TEXT NOT NULL, started_ms INTEGER NOT NULL, plan TEXT NOT NULL,
  next_step INTEGER NOT NULL, next_due_ms INTEGER, refused TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX IF NOT EXISTS scenario_runs_due ON scenario_runs (next_due_ms);
`;

const WAL_CHECKPOINT_PAGES = 10_000;

/**
 * Statements prepared once at start-up, kept for as long as their connection: better-sqlite3 12's
 * Statement destructor, run when the garbage collector frees one, can abort Node 24 (`(env) !=
 * nullptr` in RemoveEnvironmentCleanupHook, an upstream bug). So the sandbox never lets a statement
 * become garbage: pragmas and one-off writes go through `exec` (no statement object), and the few
 * start-up reads are kept here.
 */
const KEPT = new WeakMap<Database.Database, Database.Statement[]>();

function keptStatement(db: Database.Database, sql: string): Database.Statement {
  const statement = db.prepare(sql);
  const kept = KEPT.get(db) ?? [];
  kept.push(statement);
  KEPT.set(db, kept);
  return statement;
}

/** Opens (and creates or migrates) a sandbox database: a file path or ':memory:'. */
export function openDatabase(path: string): Database.Database {
  const db = new Database(path);
  if (path !== ':memory:') {
    db.exec('PRAGMA journal_mode = WAL');
    // A create commits about six pages; at SQLite's default of 1,000 pages the WAL would be copied back
    // (and fsync'd) every ~150 creates, stalling every request meanwhile. 10,000 pages (~40 MB of WAL).
    db.exec(`PRAGMA wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
  }
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec(SCHEMA);
  migrateUsageRows(db);
  // The key that seals list cursors; shared by every process on the file (first writer wins).
  db.exec(`INSERT OR IGNORE INTO meta (name, value) VALUES ('cursor_key', X'${randomBytes(32).toString('hex')}')`);
  return db;
}

/**
 * Files written before usage was kept as daily counters and a ring of recent requests have a row per
 * request in a `usage` table: fold it into the new tables once, then drop it.
 */
function migrateUsageRows(db: Database.Database): void {
  const hasOld = keptStatement(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'usage'").get() !== undefined;
  if (!hasOld) return;
  db.transaction(() => {
    db.exec(`INSERT INTO usage_days (org_id, day, requests, errors)
      SELECT org_id, at - at % 86400, COUNT(*), SUM(status >= 400) FROM usage GROUP BY org_id, at - at % 86400
      ON CONFLICT (org_id, day) DO UPDATE SET requests = requests + excluded.requests, errors = errors + excluded.errors`);
    db.exec(`INSERT OR REPLACE INTO usage_recent (org_id, slot, seq, method, path, status, at)
      SELECT org_id, n % ${RECENT_KEPT}, n, method, path, status, at FROM (
        SELECT org_id, method, path, status, at, ROW_NUMBER() OVER (PARTITION BY org_id ORDER BY id) AS n,
               COUNT(*) OVER (PARTITION BY org_id) AS total FROM usage
      ) WHERE n > total - ${RECENT_KEPT}`);
    db.exec('DROP TABLE usage');
  }).immediate();
}

/** The database's 32-byte cursor-sealing key. */
export function cursorKey(db: Database.Database): Buffer {
  return keptStatement(db, "SELECT value FROM meta WHERE name = 'cursor_key'").pluck().get() as Buffer;
}
