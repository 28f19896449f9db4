import type Database from 'better-sqlite3';
import type { IdempotencyRecord } from './types.js';

/** Stored answers of idempotent requests, per organisation and key. */
export class IdempotencyStore {
  private readonly s;

  constructor(db: Database.Database) {
    this.s = {
      get: db.prepare('SELECT * FROM idempotency WHERE org_id = ? AND key = ?'),
      // Replaces only an expired record: the caller looked the key up in the same transaction.
      put: db.prepare(
        `INSERT INTO idempotency (org_id, key, method, url, body_hash, status, headers, body, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (org_id, key) DO UPDATE SET method = excluded.method, url = excluded.url, body_hash = excluded.body_hash,
           status = excluded.status, headers = excluded.headers, body = excluded.body, created_at = excluded.created_at`,
      ),
      purge: db.prepare('DELETE FROM idempotency WHERE created_at < ?'),
    };
  }

  get(orgId: string, key: string): IdempotencyRecord | undefined {
    const row = this.s.get.get(orgId, key) as
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

  /** Stores an answer, replacing an expired record of the same key. */
  put(orgId: string, key: string, r: IdempotencyRecord): void {
    this.s.put.run(orgId, key, r.method, r.url, r.bodyHash, r.response.status, JSON.stringify(r.response.headers), r.response.body, r.createdAt);
  }

  purgeBefore(ts: number): void {
    this.s.purge.run(ts);
  }
}
