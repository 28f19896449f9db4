import type Database from 'better-sqlite3';
import type { UsageEntry } from './types.js';

/** Requests kept per organisation for the recent-requests route (the API returns the latest 100). */
export const RECENT_KEPT = 100;
const DAY_S = 86_400;

/** Start of the UTC day of a Unix-seconds time. */
const dayOf = (ts: number): number => ts - (((ts % DAY_S) + DAY_S) % DAY_S);

/**
 * Usage as the API shows it: a counter row per organisation and UTC day (requests, errors), and a
 * ring of each organisation's latest RECENT_KEPT requests (slot = sequence number modulo the ring's
 * size). Storage stays bounded however many requests arrive, and recording a batch writes a few rows,
 * not one row per request.
 */
export class UsageStore {
  private readonly s;

  constructor(db: Database.Database) {
    this.s = {
      addDay: db.prepare(
        `INSERT INTO usage_days (org_id, day, requests, errors) VALUES (?, ?, ?, ?)
         ON CONFLICT (org_id, day) DO UPDATE SET requests = requests + excluded.requests, errors = errors + excluded.errors`,
      ),
      lastSeq: db.prepare('SELECT MAX(seq) FROM usage_recent WHERE org_id = ?').pluck(),
      putRecent: db.prepare('INSERT OR REPLACE INTO usage_recent (org_id, slot, seq, method, path, status, at) VALUES (?, ?, ?, ?, ?, ?, ?)'),
      perDay: db.prepare(
        `SELECT date(day, 'unixepoch') AS date, requests, errors FROM usage_days WHERE org_id = ? AND day >= ? ORDER BY day`,
      ),
      recent: db.prepare('SELECT method, path, status, at FROM usage_recent WHERE org_id = ? AND at >= ? ORDER BY seq DESC LIMIT ?'),
      purgeDays: db.prepare('DELETE FROM usage_days WHERE day < ?'),
      purgeRecent: db.prepare('DELETE FROM usage_recent WHERE at < ?'),
    };
  }

  /** Adds the entries (in arrival order) to the daily counters and the rings; the caller wraps it in one transaction. */
  record(entries: readonly UsageEntry[]): void {
    const days = new Map<string, { orgId: string; day: number; requests: number; errors: number }>();
    const byOrg = new Map<string, UsageEntry[]>();
    // Entries come in runs of one organisation and one day: look the counter and list up once per run.
    let counter: { orgId: string; day: number; requests: number; errors: number } | undefined;
    let list: UsageEntry[] | undefined;
    for (const e of entries) {
      const day = dayOf(e.at);
      if (counter === undefined || counter.orgId !== e.orgId || counter.day !== day) {
        const key = `${e.orgId}\n${day}`;
        counter = days.get(key);
        if (!counter) {
          counter = { orgId: e.orgId, day, requests: 0, errors: 0 };
          days.set(key, counter);
        }
        list = byOrg.get(e.orgId);
        if (!list) byOrg.set(e.orgId, (list = []));
      }
      counter.requests++;
      if (e.status >= 400) counter.errors++;
      (list as UsageEntry[]).push(e);
    }
    for (const c of days.values()) this.s.addDay.run(c.orgId, c.day, c.requests, c.errors);
    for (const [orgId, list] of byOrg) {
      const last = (this.s.lastSeq.get(orgId) as number | null) ?? 0;
      // Only the newest RECENT_KEPT of the batch can survive in the ring.
      for (let i = Math.max(0, list.length - RECENT_KEPT); i < list.length; i++) {
        const e = list[i] as UsageEntry;
        const seq = last + i + 1;
        this.s.putRecent.run(orgId, seq % RECENT_KEPT, seq, e.method, e.path, e.status, e.at);
      }
    }
  }

  perDay(orgId: string, from: number): Array<{ date: string; requests: number; errors: number }> {
    return this.s.perDay.all(orgId, from) as Array<{ date: string; requests: number; errors: number }>;
  }

  recent(orgId: string, since: number, limit: number): Array<{ method: string; path: string; status: number; at: number }> {
    return this.s.recent.all(orgId, since, limit) as Array<{ method: string; path: string; status: number; at: number }>;
  }

  purgeBefore(ts: number): void {
    this.s.purgeDays.run(dayOf(ts));
    this.s.purgeRecent.run(ts);
  }
}
