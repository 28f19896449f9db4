import type Database from 'better-sqlite3';
import type { Scope } from '../../schemas/routes.js';
import { sha256 } from '../hash.js';
import type { SeedObject } from '../seed.js';
import type { KeyRecord, OrgRecord } from './types.js';

/** Organisations, their couriers and API key hashes, as the seed defines them. */
export class AccountStore {
  private readonly s;

  constructor(db: Database.Database) {
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
    };
  }

  applySeed(seed: SeedObject): void {
    for (const org of seed.organisations) {
      this.s.upsertOrg.run(org.id, org.name, org.verified === false ? 0 : 1, org.rate_limit?.requests ?? null, org.rate_limit?.window_s ?? null);
      for (const c of org.couriers) this.s.upsertCourier.run(org.id, c.code, c.name);
      for (const k of org.keys) this.s.upsertKey.run(sha256(k.key), org.id, JSON.stringify(k.scopes), k.expires_at ?? null);
    }
  }

  organisations(): OrgRecord[] {
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

  keys(): KeyRecord[] {
    const rows = this.s.keys.all() as Array<{ key_hash: Buffer; org_id: string; scopes: string; expires_at: number | null }>;
    return rows.map((r) => ({ hash: r.key_hash, orgId: r.org_id, scopes: JSON.parse(r.scopes) as Scope[], expiresAt: r.expires_at }));
  }
}
