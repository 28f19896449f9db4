import type Database from 'better-sqlite3';
import type { TestClockState } from '../clock.js';
import type { ScenarioRunRecord } from './types.js';

/** The `meta` row holding the stored test clock. */
export const TEST_CLOCK_ROW = 'test_clock';

interface RunRow {
  run_no: number;
  parcel_seq: number;
  org_id: string;
  entry_id: string;
  scenario: string;
  started_ms: number;
  plan: string;
  next_step: number;
  next_due_ms: number | null;
  refused: string;
}

function toRun(r: RunRow): ScenarioRunRecord {
  return {
    runNo: r.run_no,
    parcelSeq: r.parcel_seq,
    orgId: r.org_id,
    entryId: r.entry_id,
    scenario: r.scenario,
    startedMs: r.started_ms,
    plan: JSON.parse(r.plan) as ScenarioRunRecord['plan'],
    nextStep: r.next_step,
    nextDueMs: r.next_due_ms,
    refused: JSON.parse(r.refused) as ScenarioRunRecord['refused'],
  };
}

/** The test bench's own state: the stored test clock (a `meta` row) and the scenario runs of parcels. */
export class TestBenchStore {
  private readonly s;

  constructor(db: Database.Database) {
    this.s = {
      readClock: db.prepare('SELECT value FROM meta WHERE name = ?').pluck(),
      writeClock: db.prepare('INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value'),
      deleteRun: db.prepare('DELETE FROM scenario_runs WHERE parcel_seq = ?'),
      insertRun: db.prepare(
        `INSERT INTO scenario_runs (parcel_seq, org_id, entry_id, scenario, started_ms, plan, next_step, next_due_ms)
         VALUES (@parcelSeq, @orgId, @entryId, @scenario, @startedMs, @plan, 0, @nextDueMs) RETURNING run_no`,
      ).pluck(),
      nextRunNo: db.prepare("SELECT COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'scenario_runs'), 0) + 1").pluck(),
      getRun: db.prepare('SELECT * FROM scenario_runs WHERE parcel_seq = ?'),
      firstDue: db.prepare('SELECT MIN(next_due_ms) FROM scenario_runs WHERE next_due_ms IS NOT NULL').pluck(),
      nextDueRun: db.prepare('SELECT * FROM scenario_runs WHERE next_due_ms IS NOT NULL AND next_due_ms <= ? ORDER BY next_due_ms, run_no LIMIT 1'),
      advanceRun: db.prepare('UPDATE scenario_runs SET next_step = ?, next_due_ms = ?, refused = ? WHERE run_no = ?'),
    };
  }

  readClock(): TestClockState | undefined {
    const raw = this.s.readClock.get(TEST_CLOCK_ROW) as Buffer | string | undefined;
    return raw === undefined ? undefined : (JSON.parse(raw.toString()) as TestClockState);
  }

  writeClock(state: TestClockState): void {
    this.s.writeClock.run(TEST_CLOCK_ROW, JSON.stringify(state));
  }

  /** The run number the next assignment will get (it seeds the run's random choices). */
  nextRunNo(): number {
    return this.s.nextRunNo.get() as number;
  }

  /** Replaces the parcel's run (if any) with a new one; returns its run number. */
  putRun(run: Omit<ScenarioRunRecord, 'runNo' | 'nextStep' | 'refused'>): number {
    this.s.deleteRun.run(run.parcelSeq);
    return this.s.insertRun.get({ ...run, plan: JSON.stringify(run.plan) }) as number;
  }

  getRun(parcelSeq: number): ScenarioRunRecord | undefined {
    const row = this.s.getRun.get(parcelSeq) as RunRow | undefined;
    return row === undefined ? undefined : toRun(row);
  }

  /** The earliest due time of any unfinished run (any organisation), or null. */
  firstDueMs(): number | null {
    return this.s.firstDue.get() as number | null;
  }

  /** The unfinished run whose next step is due first, if due by `nowMs`. */
  nextDueRun(nowMs: number): ScenarioRunRecord | undefined {
    const row = this.s.nextDueRun.get(nowMs) as RunRow | undefined;
    return row === undefined ? undefined : toRun(row);
  }

  advanceRun(runNo: number, nextStep: number, nextDueMs: number | null, refused: ScenarioRunRecord['refused']): void {
    this.s.advanceRun.run(nextStep, nextDueMs, JSON.stringify(refused), runNo);
  }
}
