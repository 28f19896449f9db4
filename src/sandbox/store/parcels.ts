import type Database from 'better-sqlite3';
import type { InspectQuery, InspectedParcel, ListQuery, ParcelFields, ParcelRecord } from './types.js';
import { OPTIONAL_PARCEL_FIELDS, REQUIRED_PARCEL_FIELDS } from './types.js';

const PARCEL_FIELDS = [...REQUIRED_PARCEL_FIELDS, ...OPTIONAL_PARCEL_FIELDS] as const satisfies ReadonlyArray<keyof ParcelFields>;

/** The parcels table: rows, conditional updates, lists and counts. */
export class ParcelStore {
  private readonly s;
  /** One prepared statement per shape of the list query (courier and status filters on or off). */
  private readonly lists = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {
    const cols = PARCEL_FIELDS.join(', ');
    this.s = {
      insert: db.prepare(
        `INSERT INTO parcels (entry_id, org_id, ${cols}, status, version, created_at, updated_at)
         VALUES (?, ?, ${PARCEL_FIELDS.map(() => '?').join(', ')}, 0, 1, ?, ?)`,
      ),
      get: db.prepare('SELECT * FROM parcels WHERE entry_id = ? AND org_id = ?'),
      bySeq: db.prepare('SELECT * FROM parcels WHERE seq = ?'),
      byEntryId: db.prepare('SELECT * FROM parcels WHERE entry_id = ?'),
      // Conditional on the version read: a change made in between (by any process) updates nothing.
      update: db.prepare(
        `UPDATE parcels SET ${PARCEL_FIELDS.map((f) => `${f} = @${f}`).join(', ')},
           version = version + 1, updated_at = @now WHERE seq = @seq AND version = @version`,
      ),
      setStatus: db.prepare('UPDATE parcels SET status = ?, version = version + 1, updated_at = ? WHERE seq = ? AND version = ?'),
      maxSeq: db.prepare('SELECT COALESCE(MAX(seq), 0) FROM parcels WHERE org_id = ?').pluck(),
      byStatus: db.prepare('SELECT status, COUNT(*) AS n FROM parcels WHERE org_id = ? GROUP BY status'),
      byCourier: db.prepare('SELECT courier, COUNT(*) AS n FROM parcels WHERE org_id = ? GROUP BY courier'),
      plannedPerDay: db.prepare(
        `SELECT date(time_slot_period_start, 'unixepoch') AS date, COUNT(*) AS count FROM parcels
         WHERE org_id = ? AND status <> 4 AND time_slot_period_start >= ? AND time_slot_period_start < ?
         GROUP BY date ORDER BY date`,
      ),
      postcodeAreas: db.prepare(
        `SELECT substr(postal_code, 1, 2) AS area, COUNT(*) AS parcels FROM parcels
         WHERE org_id = ? AND country = 'NL' GROUP BY area ORDER BY area`,
      ),
    };
  }

  /** Inserts the parcel; the record is built from what was inserted (RETURNING costs a third more). */
  create(orgId: string, entryId: string, fields: ParcelFields, now: number): ParcelRecord {
    const { lastInsertRowid } = this.s.insert.run(entryId, orgId, ...PARCEL_FIELDS.map((f) => fields[f]), now, now);
    return { seq: Number(lastInsertRowid), entry_id: entryId, org_id: orgId, ...fields, status: 0, version: 1, created_at: now, updated_at: now };
  }

  get(orgId: string, entryId: string): ParcelRecord | undefined {
    return this.s.get.get(entryId, orgId) as ParcelRecord | undefined;
  }

  getByEntryId(entryId: string): ParcelRecord | undefined {
    return this.s.byEntryId.get(entryId) as ParcelRecord | undefined;
  }

  getBySeq(seq: number): ParcelRecord | undefined {
    return this.s.bySeq.get(seq) as ParcelRecord | undefined;
  }

  update(parcel: ParcelRecord, fields: ParcelFields, now: number): ParcelRecord | undefined {
    const values: Record<string, unknown> = { seq: parcel.seq, version: parcel.version, now };
    for (const f of PARCEL_FIELDS) values[f] = fields[f];
    if (this.s.update.run(values).changes === 0) return undefined;
    return this.s.bySeq.get(parcel.seq) as ParcelRecord;
  }

  setStatus(parcel: ParcelRecord, status: number, now: number): ParcelRecord | undefined {
    if (this.s.setStatus.run(status, now, parcel.seq, parcel.version).changes === 0) return undefined;
    return this.s.bySeq.get(parcel.seq) as ParcelRecord;
  }

  maxSeq(orgId: string): number {
    return this.s.maxSeq.get(orgId) as number;
  }

  list(orgId: string, q: ListQuery): ParcelRecord[] {
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
    const sql = `SELECT * FROM parcels WHERE ${where.join(' AND ')} ORDER BY seq ASC LIMIT ?`;
    let stmt = this.lists.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.lists.set(sql, stmt);
    }
    return stmt.all(...args) as ParcelRecord[];
  }

  /** Newest first across organisations; an id prefix is a range on entry_id's unique index. */
  inspect(q: InspectQuery): InspectedParcel[] {
    const where: string[] = [];
    const args: unknown[] = [];
    const filter = (sql: string, ...values: unknown[]) => {
      where.push(sql);
      args.push(...values);
    };
    if (q.org !== undefined) filter('p.org_id = ?', q.org);
    if (q.courier !== undefined) filter('p.courier = ?', q.courier);
    if (q.status !== undefined) filter('p.status = ?', q.status);
    // entry_id holds lower-case hex and hyphens, all below '~'.
    if (q.idPrefix !== undefined && q.idPrefix !== '') filter('p.entry_id >= ? AND p.entry_id < ?', q.idPrefix, `${q.idPrefix}~`);
    if (q.before !== undefined) filter('p.seq < ?', q.before);
    args.push(q.limit);
    const sql = `SELECT p.*, r.scenario AS scenario FROM parcels p LEFT JOIN scenario_runs r ON r.parcel_seq = p.seq
      ${where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`} ORDER BY p.seq DESC LIMIT ?`;
    let stmt = this.lists.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.lists.set(sql, stmt);
    }
    return stmt.all(...args) as InspectedParcel[];
  }

  countByStatus(orgId: string): Map<number, number> {
    const rows = this.s.byStatus.all(orgId) as Array<{ status: number; n: number }>;
    return new Map(rows.map((r) => [r.status, r.n]));
  }

  countByCourier(orgId: string): Map<string, number> {
    const rows = this.s.byCourier.all(orgId) as Array<{ courier: string; n: number }>;
    return new Map(rows.map((r) => [r.courier, r.n]));
  }

  plannedPerDay(orgId: string, from: number, to: number): Array<{ date: string; count: number }> {
    return this.s.plannedPerDay.all(orgId, from, to) as Array<{ date: string; count: number }>;
  }

  postcodeAreas(orgId: string): Array<{ area: string; parcels: number }> {
    return this.s.postcodeAreas.all(orgId) as Array<{ area: string; parcels: number }>;
  }
}
