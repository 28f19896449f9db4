import type { ScenarioRunView } from '../../schemas/sandbox-admin.js';
import { SandboxError } from '../errors.js';
import { derivedUuid } from '../hash.js';
import { recordAttempt, recordEvent } from '../handlers/history.js';
import type { ParcelRecord, PlannedStep, Repository, ScenarioRunRecord } from '../store/types.js';
import { resolvePlan, runRandom } from './plan.js';
import type { ScenarioCatalogue, ScenarioDefinition, TrackingFaultOptions } from './types.js';

/** A scenario name the sandbox does not know. */
export class UnknownScenarioError extends Error {
  override readonly name = 'UnknownScenarioError';
}

/** Steps applied in one catch-up at most, so one request never stalls on a huge backlog. */
const CATCH_UP_LIMIT = 10_000;

/** A UUID derived from the run and step, so a seed replays the same event ids' order. */
function stepUuid(run: ScenarioRunRecord, step: number, copy: number): string {
  return derivedUuid(`${run.entryId}:${run.runNo}:${step}:${copy}`);
}

/**
 * Drives parcels through their scenarios. A run is planned at assignment (stored in the database)
 * and its steps are applied as data time reaches them: before a request is handled, every due step
 * of every run is stored exactly as if the courier had posted it at its due time (same records,
 * same transition rules, same status and ETag changes). Any process on the file may apply them;
 * each step is applied once, in a write transaction.
 */
export class ScenarioEngine {
  private firstDue: number | null = null;
  private seenVersion = -1;

  constructor(
    private readonly repo: Repository,
    private readonly catalogue: ScenarioCatalogue,
    private readonly faults: TrackingFaultOptions,
  ) {}

  names(): Array<{ name: string; description: string }> {
    return [...this.catalogue.scenarios].map(([name, def]) => ({ name, description: def.description }));
  }

  /** Every scenario with its steps as written (the inspector lists them). */
  definitions(): Array<{ name: string } & ScenarioDefinition> {
    return [...this.catalogue.scenarios].map(([name, def]) => ({ name, ...def }));
  }

  /** Starts `scenario` for the parcel at data time `startMs`, replacing any run it had. Call inside a write transaction. */
  assign(parcel: ParcelRecord, scenario: string, startMs: number): ScenarioRunRecord {
    const def = this.catalogue.scenarios.get(scenario);
    if (def === undefined) throw new UnknownScenarioError(`unknown scenario "${scenario}"; known: ${[...this.catalogue.scenarios.keys()].join(', ')}`);
    const runNo = this.repo.nextScenarioRunNo();
    const plan = resolvePlan(def.steps, runRandom(this.catalogue.seed, runNo), this.faults);
    const first = plan[0];
    const run = { parcelSeq: parcel.seq, orgId: parcel.org_id, entryId: parcel.entry_id, scenario, startedMs: startMs, plan, nextDueMs: first === undefined ? null : startMs + first.atMs };
    this.repo.putScenarioRun(run);
    this.seenVersion = -1;
    return this.repo.getScenarioRun(parcel.seq) as ScenarioRunRecord;
  }

  /** Forgets the earliest due time it keeps: after a reset emptied the runs of a private database, whose version never changes. */
  forget(): void {
    this.firstDue = null;
    this.seenVersion = -1;
  }

  /** Gives a new parcel the scenario of the first matching rule, if any. Call inside its create transaction. */
  assignByRule(parcel: ParcelRecord, startMs: number): void {
    const rule = this.catalogue.rules.find(
      (r) => (r.courier === undefined || r.courier === parcel.courier) && (r.postalCode === undefined || r.postalCode.test(parcel.postal_code)),
    );
    if (rule !== undefined && this.catalogue.scenarios.has(rule.scenario)) this.assign(parcel, rule.scenario, startMs);
  }

  view(parcel: ParcelRecord): ScenarioRunView | undefined {
    const run = this.repo.getScenarioRun(parcel.seq);
    if (run === undefined) return undefined;
    return {
      entry_id: run.entryId,
      scenario: run.scenario,
      run: run.runNo,
      started_at: Math.floor(run.startedMs / 1000),
      steps: run.plan.map((s, n) => ({
        arrives_at: Math.floor((run.startedMs + s.atMs) / 1000),
        occurred_at: Math.floor((run.startedMs + s.occurredMs) / 1000),
        ...('event' in s.report ? { event: s.report.event } : { attempt: { outcome: s.report.attempt.outcome, reason: s.report.attempt.reason } }),
        copies: s.copies,
        applied: n < run.nextStep,
      })),
      refused: run.refused,
      done: run.nextDueMs === null,
    };
  }

  /**
   * Applies every step due by data time `nowMs`, in due order across runs. Cheap when nothing is
   * due: the earliest due time is kept in memory and re-read only after another connection committed.
   */
  catchUp(nowMs: number, version = this.repo.dataVersion()): void {
    if (version !== this.seenVersion) {
      this.firstDue = this.repo.firstScenarioDueMs();
      this.seenVersion = version;
    }
    if (this.firstDue === null || this.firstDue > nowMs) return;
    this.repo.transaction(() => {
      for (let n = 0; n < CATCH_UP_LIMIT; n++) {
        const run = this.repo.nextDueScenarioRun(nowMs);
        if (run === undefined) break;
        this.applyNext(run);
      }
    });
    this.firstDue = this.repo.firstScenarioDueMs();
    this.seenVersion = this.repo.dataVersion();
  }

  private applyNext(run: ScenarioRunRecord): void {
    const index = run.nextStep;
    const step = run.plan[index] as PlannedStep;
    const parcel = this.repo.getParcelBySeq(run.parcelSeq);
    const refused = [...run.refused];
    if (parcel !== undefined) {
      let current: ParcelRecord = parcel;
      for (let copy = 0; copy < step.copies; copy++) {
        try {
          current = this.report(run, index, copy, current, step);
        } catch (err) {
          if (!(err instanceof SandboxError)) throw err;
          refused.push({ step: index, code: err.code });
        }
      }
    }
    const next = parcel === undefined ? undefined : run.plan[index + 1];
    this.repo.advanceScenarioRun(run.runNo, index + 1, next === undefined ? null : run.startedMs + next.atMs, refused);
  }

  /** Stores one report exactly as the events/attempts routes would, at the step's due time. */
  private report(run: ScenarioRunRecord, index: number, copy: number, parcel: ParcelRecord, step: PlannedStep): ParcelRecord {
    const at = Math.floor((run.startedMs + step.atMs) / 1000);
    const occurred = Math.floor((run.startedMs + step.occurredMs) / 1000);
    if ('event' in step.report) return recordEvent(this.repo, parcel, stepUuid(run, index, copy), step.report.event, occurred, at).parcel;
    const { outcome, reason, delivered } = step.report.attempt;
    return recordAttempt(this.repo, parcel, { outcome, reason, time_attempt: occurred, delivered: delivered ?? null }, at).parcel;
  }
}
