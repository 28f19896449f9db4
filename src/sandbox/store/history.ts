import type Database from 'better-sqlite3';
import type { DeliveredAddress } from '../../schemas/history.js';
import type { AttemptInput, AttemptRecord, DayCount, EventRecord, ParcelRecord } from './types.js';

/** Status events and delivery attempts of parcels. */
export class HistoryStore {
  private readonly s;

  constructor(db: Database.Database) {
    this.s = {
      insertEvent: db.prepare(
        'INSERT INTO events (event_id, parcel_seq, org_id, status, occurred_at, recorded_at) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      listEvents: db.prepare(
        `SELECT event_id, status, occurred_at, recorded_at FROM
           (SELECT seq, event_id, status, occurred_at, recorded_at FROM events WHERE parcel_seq = ? ORDER BY seq DESC LIMIT ?)
         ORDER BY seq ASC`,
      ),
      // The number is computed inside the INSERT, and (parcel_seq, attempt_no) is the primary key:
      // two writers can never both take the same number.
      insertAttempt: db.prepare(
        `INSERT INTO attempts (parcel_seq, attempt_no, org_id, outcome, reason, time_attempt, delivered, recorded_at)
         VALUES (@seq, (SELECT COALESCE(MAX(attempt_no), 0) + 1 FROM attempts WHERE parcel_seq = @seq),
           @org_id, @outcome, @reason, @time_attempt, @delivered, @now)
         RETURNING attempt_no`,
      ).pluck(),
      listAttempts: db.prepare(
        `SELECT attempt_no, outcome, reason, time_attempt, delivered, recorded_at FROM attempts
         WHERE parcel_seq = ? ORDER BY attempt_no ASC`,
      ),
      countEvents: db.prepare('SELECT COUNT(*) FROM events WHERE org_id = ?').pluck(),
      countAttempts: db.prepare('SELECT COUNT(*) FROM attempts WHERE org_id = ?').pluck(),
      eventsPerDay: db.prepare(
        `SELECT date(recorded_at, 'unixepoch') AS date, COUNT(*) AS count FROM events
         WHERE org_id = ? AND recorded_at >= ? AND recorded_at < ? GROUP BY date ORDER BY date`,
      ),
      attemptsPerDay: db.prepare(
        `SELECT date(recorded_at, 'unixepoch') AS date, COUNT(*) AS count FROM attempts
         WHERE org_id = ? AND recorded_at >= ? AND recorded_at < ? GROUP BY date ORDER BY date`,
      ),
    };
  }

  addEvent(parcel: ParcelRecord, eventId: string, status: number, occurredAt: number, now: number): EventRecord {
    this.s.insertEvent.run(eventId, parcel.seq, parcel.org_id, status, occurredAt, now);
    return { event_id: eventId, entry_id: parcel.entry_id, status, occurred_at: occurredAt, recorded_at: now };
  }

  listEvents(parcel: ParcelRecord, limit: number): EventRecord[] {
    const rows = this.s.listEvents.all(parcel.seq, limit) as Array<Omit<EventRecord, 'entry_id'>>;
    return rows.map((r) => ({ event_id: r.event_id, entry_id: parcel.entry_id, status: r.status, occurred_at: r.occurred_at, recorded_at: r.recorded_at }));
  }

  addAttempt(parcel: ParcelRecord, input: AttemptInput, now: number): AttemptRecord {
    const delivered = input.delivered === null ? null : JSON.stringify(input.delivered);
    const n = this.s.insertAttempt.get({
      seq: parcel.seq,
      org_id: parcel.org_id,
      outcome: input.outcome,
      reason: input.reason,
      time_attempt: input.time_attempt,
      delivered,
      now,
    }) as number;
    return { attempt_no: n, entry_id: parcel.entry_id, ...input, recorded_at: now };
  }

  listAttempts(parcel: ParcelRecord): AttemptRecord[] {
    const rows = this.s.listAttempts.all(parcel.seq) as Array<Omit<AttemptRecord, 'entry_id' | 'delivered'> & { delivered: string | null }>;
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

  countEvents(orgId: string): number {
    return this.s.countEvents.get(orgId) as number;
  }

  countAttempts(orgId: string): number {
    return this.s.countAttempts.get(orgId) as number;
  }

  eventsPerDay(orgId: string, from: number, to: number): DayCount[] {
    return this.s.eventsPerDay.all(orgId, from, to) as DayCount[];
  }

  attemptsPerDay(orgId: string, from: number, to: number): DayCount[] {
    return this.s.attemptsPerDay.all(orgId, from, to) as DayCount[];
  }
}
