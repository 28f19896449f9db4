import type { ParcelFieldValues } from '../../schemas/parcel-fields.js';
import type { DeliveredAddress } from '../../schemas/history.js';
import type { Scope } from '../../schemas/routes.js';
import type { TestClockState } from '../clock.js';
import type { RateLimitSpec, SeedObject } from '../seed.js';

export interface CourierRecord {
  code: string;
  name: string;
}

export interface OrgRecord {
  id: string;
  name: string;
  verified: boolean;
  /** The organisation's own limit, or null to use the sandbox-wide one. */
  rateLimit: RateLimitSpec | null;
  couriers: CourierRecord[];
}

export interface KeyRecord {
  /** SHA-256 of the key, 32 bytes. */
  hash: Buffer;
  orgId: string;
  scopes: Scope[];
  expiresAt: number | null;
}

export { OPTIONAL_PARCEL_FIELDS, REQUIRED_PARCEL_FIELDS } from '../../schemas/parcel-fields.js';

/** The changeable fields of a parcel (the table in schemas/parcel-fields.ts); absent optional values are null. */
export type ParcelFields = ParcelFieldValues;

export interface ParcelRecord extends ParcelFields {
  /** Creation sequence (SQLite rowid); orders lists; never shown (cursors are sealed). */
  seq: number;
  org_id: string;
  entry_id: string;
  status: number;
  /** Incremented on every change of the representation; part of the ETag. */
  version: number;
  created_at: number;
  updated_at: number;
}

export interface EventRecord {
  event_id: string;
  entry_id: string;
  status: number;
  occurred_at: number;
  recorded_at: number;
}

export interface AttemptRecord {
  attempt_no: number;
  entry_id: string;
  outcome: number;
  reason: number;
  time_attempt: number;
  delivered: DeliveredAddress | null;
  recorded_at: number;
}

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface IdempotencyRecord {
  method: string;
  url: string;
  bodyHash: string;
  response: StoredResponse;
  createdAt: number;
}

export interface UsageEntry {
  orgId: string;
  method: string;
  path: string;
  status: number;
  at: number;
}

export interface ListQuery {
  /** Exclusive lower bound on seq. */
  after: number;
  /** Inclusive upper bound on seq: the snapshot high-water mark. */
  upTo: number;
  limit: number;
  courier?: string;
  status?: number;
}

/** The inspector's look across every organisation's parcels: newest first, optionally filtered. */
export interface InspectQuery {
  org?: string;
  courier?: string;
  status?: number;
  /** Lower-case start of the entry_id. */
  idPrefix?: string;
  /** Only parcels created before this sequence (the next page). */
  before?: number;
  limit: number;
}

/** A parcel as the inspector lists it: with its scenario's name, if it has a run. */
export type InspectedParcel = ParcelRecord & { scenario: string | null };

export interface DayCount {
  date: string;
  count: number;
}

export interface AttemptInput {
  outcome: number;
  reason: number;
  time_attempt: number;
  delivered: DeliveredAddress | null;
}

/** A report a scenario step makes, as a courier would post it. */
export type ScenarioReport = { event: number } | { attempt: { outcome: number; reason: number; delivered?: DeliveredAddress } };

/** One step of a resolved scenario plan; times are milliseconds after the run started. */
export interface PlannedStep {
  /** When the report arrives (is stored). */
  atMs: number;
  /** The observation time it carries (`occurred_at` / `time_attempt`); earlier than `atMs` for a late report. */
  occurredMs: number;
  report: ScenarioReport;
  /** 2 when the report is sent twice (duplicate fault). */
  copies: number;
}

/** A parcel's scenario run: its plan resolved at assignment (branches and tracking faults drawn). */
export interface ScenarioRunRecord {
  runNo: number;
  parcelSeq: number;
  orgId: string;
  entryId: string;
  scenario: string;
  startedMs: number;
  plan: PlannedStep[];
  /** Index of the next step to apply; `plan.length` when done. */
  nextStep: number;
  /** Data time the next step is due, null when done. */
  nextDueMs: number | null;
  /** Steps the API refused when applied (e.g. an event after delivery), with the error code. */
  refused: Array<{ step: number; code: string }>;
}

/**
 * Everything the handlers may ask of storage: plain, synchronous storage calls (no caching). A
 * read-check-write runs inside `transaction` (BEGIN IMMEDIATE), which makes it atomic across
 * processes sharing the file; the conditional updates also refuse a version changed in between.
 */
export interface Repository {
  /** BEGIN IMMEDIATE … COMMIT around `fn`; inside another transaction, a savepoint that rolls back alone if `fn` throws. */
  transaction<T>(fn: () => T): T;
  /** Whether a transaction of this connection is open. */
  inTransaction(): boolean;
  /** PRAGMA data_version: changes whenever another connection (another process on the file) committed since the last call. */
  dataVersion(): number;
  applySeed(seed: SeedObject): void;
  /**
   * Deletes every parcel, event, attempt, idempotency record, usage count and scenario run, and the
   * stored test clock (real time again), in one transaction; organisations and keys stay.
   */
  emptyData(): void;
  loadOrganisations(): OrgRecord[];
  loadKeys(): KeyRecord[];
  /** The database's secret for sealing list cursors (the same for every process on the file). */
  cursorKey(): Buffer;

  createParcel(orgId: string, entryId: string, fields: ParcelFields, now: number): ParcelRecord;
  getParcel(orgId: string, entryId: string): ParcelRecord | undefined;
  /** Replaces the changeable fields, bumps version and updated_at; undefined if the version read is no longer current. */
  updateParcel(parcel: ParcelRecord, fields: ParcelFields, now: number): ParcelRecord | undefined;
  /** Sets the status, bumps version and updated_at; undefined if the version read is no longer current. */
  setParcelStatus(parcel: ParcelRecord, status: number, now: number): ParcelRecord | undefined;
  /** The organisation's newest parcel sequence (0 when it has none). */
  maxParcelSeq(orgId: string): number;
  listParcels(orgId: string, query: ListQuery): ParcelRecord[];
  countParcelsByStatus(orgId: string): Map<number, number>;
  countParcelsByCourier(orgId: string): Map<string, number>;
  /** Per UTC day, parcels not yet delivered whose time slot starts in [from, to). */
  plannedPerDay(orgId: string, from: number, to: number): DayCount[];
  /** Dutch postcode areas (first two digits) of the organisation's NL parcels with counts. */
  postcodeAreas(orgId: string): Array<{ area: string; parcels: number }>;

  addEvent(parcel: ParcelRecord, eventId: string, status: number, occurredAt: number, now: number): EventRecord;
  /** The newest `limit` events, returned oldest first. */
  listEvents(parcel: ParcelRecord, limit: number): EventRecord[];
  /** Assigns the next attempt_no of the parcel (1, 2, …) inside the insert itself. */
  addAttempt(parcel: ParcelRecord, input: AttemptInput, now: number): AttemptRecord;
  listAttempts(parcel: ParcelRecord): AttemptRecord[];
  countEvents(orgId: string): number;
  countAttempts(orgId: string): number;
  /** Per UTC day (YYYY-MM-DD), events / attempts recorded in [from, to). */
  eventsPerDay(orgId: string, from: number, to: number): DayCount[];
  attemptsPerDay(orgId: string, from: number, to: number): DayCount[];

  getIdempotency(orgId: string, key: string): IdempotencyRecord | undefined;
  putIdempotency(orgId: string, key: string, record: IdempotencyRecord): void;
  purgeIdempotencyBefore(ts: number): void;

  /** Adds answered requests (in arrival order) to the daily totals and the latest-requests ring, in one transaction. */
  recordUsage(entries: readonly UsageEntry[]): void;
  usagePerDay(orgId: string, from: number): Array<{ date: string; requests: number; errors: number }>;
  usageRecent(orgId: string, since: number, limit: number): Array<{ method: string; path: string; status: number; at: number }>;
  purgeUsageBefore(ts: number): void;

  /** The stored test clock (shared by every process on the file); undefined until first set. */
  readClock(): TestClockState | undefined;
  writeClock(state: TestClockState): void;
  /** The parcel with this creation sequence (scenario runs refer to parcels by it). */
  getParcelBySeq(seq: number): ParcelRecord | undefined;
  /** A parcel of any organisation by entry_id (the admin route's view). */
  getParcelAnyOrg(entryId: string): ParcelRecord | undefined;
  /** Every organisation's parcels, newest first, with their scenario names (the inspector's view). */
  inspectParcels(query: InspectQuery): InspectedParcel[];
  nextScenarioRunNo(): number;
  /** Replaces the parcel's scenario run; returns its run number. */
  putScenarioRun(run: Omit<ScenarioRunRecord, 'runNo' | 'nextStep' | 'refused'>): number;
  getScenarioRun(parcelSeq: number): ScenarioRunRecord | undefined;
  firstScenarioDueMs(): number | null;
  nextDueScenarioRun(nowMs: number): ScenarioRunRecord | undefined;
  advanceScenarioRun(runNo: number, nextStep: number, nextDueMs: number | null, refused: ScenarioRunRecord['refused']): void;

  close(): void;
}
