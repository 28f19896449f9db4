import type Database from 'better-sqlite3';
import { AccountStore } from './accounts.js';
import { HistoryStore } from './history.js';
import { IdempotencyStore } from './idempotency.js';
import { ParcelStore } from './parcels.js';
import { cursorKey, openDatabase } from './schema.js';
import { TEST_CLOCK_ROW, TestBenchStore } from './testbench.js';
import type { Repository } from './types.js';
import { UsageStore } from './usage.js';

/** better-sqlite3 storage: one connection, its tables' statements grouped by concern. */
export function openSqliteRepository(path: string): Repository {
  const db: Database.Database = openDatabase(path);
  const accounts = new AccountStore(db);
  const parcels = new ParcelStore(db);
  const history = new HistoryStore(db);
  const idempotency = new IdempotencyStore(db);
  const usage = new UsageStore(db);
  const bench = new TestBenchStore(db);
  const key = cursorKey(db);
  // A private (`:memory:`) database has no other connection: nothing else can ever commit to it.
  const versionQuery = path === ':memory:' || path === '' ? undefined : db.prepare('PRAGMA data_version').pluck();
  const emptied = ['parcels', 'events', 'attempts', 'idempotency', 'usage_days', 'usage_recent', 'scenario_runs'].map((table) => db.prepare(`DELETE FROM ${table}`));
  // Run numbers seed a run's random choices: after a reset they start at 1 again, as on a new database.
  emptied.push(db.prepare("DELETE FROM sqlite_sequence WHERE name = 'scenario_runs'"), db.prepare(`DELETE FROM meta WHERE name = '${TEST_CLOCK_ROW}'`));
  // One transaction function for every call (better-sqlite3 builds four wrappers per transaction()).
  const immediate = db.transaction((fn: () => unknown) => fn()).immediate;
  return {
    // BEGIN IMMEDIATE takes the write lock up front, so a read-check-write is atomic even when
    // another process (`parcels --sandbox` next to `parcels sandbox serve`) shares the file.
    transaction: <T>(fn: () => T) => immediate(fn) as T,
    inTransaction: () => db.inTransaction,
    dataVersion: () => (versionQuery === undefined ? 0 : (versionQuery.get() as number)),
    applySeed: (seed) => immediate(() => accounts.applySeed(seed)),
    emptyData: () =>
      immediate(() => {
        for (const statement of emptied) statement.run();
      }),
    loadOrganisations: () => accounts.organisations(),
    loadKeys: () => accounts.keys(),
    cursorKey: () => key,

    createParcel: (orgId, entryId, fields, now) => parcels.create(orgId, entryId, fields, now),
    getParcel: (orgId, entryId) => parcels.get(orgId, entryId),
    updateParcel: (parcel, fields, now) => parcels.update(parcel, fields, now),
    setParcelStatus: (parcel, status, now) => parcels.setStatus(parcel, status, now),
    maxParcelSeq: (orgId) => parcels.maxSeq(orgId),
    listParcels: (orgId, query) => parcels.list(orgId, query),
    countParcelsByStatus: (orgId) => parcels.countByStatus(orgId),
    countParcelsByCourier: (orgId) => parcels.countByCourier(orgId),
    plannedPerDay: (orgId, from, to) => parcels.plannedPerDay(orgId, from, to),
    postcodeAreas: (orgId) => parcels.postcodeAreas(orgId),

    addEvent: (parcel, eventId, status, occurredAt, now) => history.addEvent(parcel, eventId, status, occurredAt, now),
    listEvents: (parcel, limit) => history.listEvents(parcel, limit),
    addAttempt: (parcel, input, now) => history.addAttempt(parcel, input, now),
    listAttempts: (parcel) => history.listAttempts(parcel),
    countEvents: (orgId) => history.countEvents(orgId),
    countAttempts: (orgId) => history.countAttempts(orgId),
    eventsPerDay: (orgId, from, to) => history.eventsPerDay(orgId, from, to),
    attemptsPerDay: (orgId, from, to) => history.attemptsPerDay(orgId, from, to),

    getIdempotency: (orgId, key) => idempotency.get(orgId, key),
    putIdempotency: (orgId, key, record) => idempotency.put(orgId, key, record),
    purgeIdempotencyBefore: (ts) => idempotency.purgeBefore(ts),

    recordUsage: (entries) => {
      if (entries.length > 0) immediate(() => usage.record(entries));
    },
    usagePerDay: (orgId, from) => usage.perDay(orgId, from),
    usageRecent: (orgId, since, limit) => usage.recent(orgId, since, limit),
    purgeUsageBefore: (ts) => usage.purgeBefore(ts),

    readClock: () => bench.readClock(),
    writeClock: (state) => bench.writeClock(state),
    getParcelBySeq: (seq) => parcels.getBySeq(seq),
    getParcelAnyOrg: (entryId) => parcels.getByEntryId(entryId),
    inspectParcels: (query) => parcels.inspect(query),
    nextScenarioRunNo: () => bench.nextRunNo(),
    putScenarioRun: (run) => bench.putRun(run),
    getScenarioRun: (seq) => bench.getRun(seq),
    firstScenarioDueMs: () => bench.firstDueMs(),
    nextDueScenarioRun: (nowMs) => bench.nextDueRun(nowMs),
    advanceScenarioRun: (runNo, nextStep, nextDueMs, refused) => bench.advanceRun(runNo, nextStep, nextDueMs, refused),

    close: () => {
      if (db.open) db.close();
    },
  };
}
