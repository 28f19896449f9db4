import type Database from 'better-sqlite3';
import type { UsageEntry } from './types.js';

/** The per-request usage log. */
export class UsageStore {
  private readonly s;

  constructor(db: Database.Database) {
    this.s = {
      insert: db.prepare('INSERT INTO usage (org_id, method, path, status, at) VALUES (?, ?, ?, ?, ?)'),
      perDay: db.prepare(
        `SELECT date(at, 'unixepoch') AS date, COUNT(*) AS requests, SUM(status >= 400) AS errors FROM usage
         WHERE org_id = ? AND at >= ? GROUP BY date ORDER BY date`,
      ),
      recent: db.prepare('SELECT method, path, status, at FROM usage WHERE org_id = ? AND at >= ? ORDER BY id DESC LIMIT ?'),
      purge: db.prepare('DELETE FROM usage WHERE at < ?'),
    };
  }

  /** Plain inserts; the caller wraps several in one transaction. */
  insert(entries: readonly UsageEntry[]): void {
    for (const e of entries) this.s.insert.run(e.orgId, e.method, e.path, e.status, e.at);
  }

  perDay(orgId: string, from: number): Array<{ date: string; requests: number; errors: number }> {
    return this.s.perDay.all(orgId, from) as Array<{ date: string; requests: number; errors: number }>;
  }

  recent(orgId: string, since: number, limit: number): Array<{ method: string; path: string; status: number; at: number }> {
    return this.s.recent.all(orgId, since, limit) as Array<{ method: string; path: string; status: number; at: number }>;
  }

  purgeBefore(ts: number): void {
    this.s.purge.run(ts);
  }
}
