/**
 * A seed's parcels (`organisations[i].parcels`), stored as the API stores what it is sent: the
 * parcel as the create route stores it, then its events and attempts through the same functions the
 * events and attempts routes (and scenario steps) write with, so the status follows the same rules.
 */
import { SandboxError } from './errors.js';
import { recordAttempt, recordEvent } from './handlers/history.js';
import { derivedUuid } from './hash.js';
import { createFields } from './rules.js';
import type { ValidSeed } from './seed.js';
import { SeedError } from './seed.js';
import type { ParcelRecord, Repository } from './store/types.js';

/** A seed's parcel as checked (its reports' defaults filled in). */
type SeedParcel = NonNullable<ValidSeed['organisations'][number]['parcels']>[number];

type Report = { at: string; time: number } & ({ event: NonNullable<SeedParcel['events']>[number] } | { attempt: NonNullable<SeedParcel['attempts']>[number] });

/** Events and attempts in the order their times say (an event first on a tie), as a courier would have sent them. */
function reportsInTimeOrder(parcel: SeedParcel, at: string): Report[] {
  const events = (parcel.events ?? []).map((event, k): Report => ({ at: `${at}.events.${k}`, time: event.occurred_at, event }));
  const attempts = (parcel.attempts ?? []).map((attempt, k): Report => ({ at: `${at}.attempts.${k}`, time: attempt.time_attempt, attempt }));
  // A stable sort: same-time reports keep the seed's order, events before attempts.
  return [...events, ...attempts].sort((a, b) => a.time - b.time);
}

function store(repo: Repository, parcel: ParcelRecord, report: Report, nowS: number): ParcelRecord {
  if ('event' in report) return recordEvent(repo, parcel, derivedUuid(`seed:${parcel.entry_id}:${report.at}`), report.event.status, report.event.occurred_at, nowS).parcel;
  const { outcome, reason, time_attempt, delivered } = report.attempt;
  return recordAttempt(repo, parcel, { outcome, reason, time_attempt, delivered: delivered ?? null }, nowS).parcel;
}

/**
 * Stores the seed's parcels at data time `nowS` (Unix seconds), in one transaction. A parcel without
 * an `entry_id` gets one derived from its organisation and place in the seed, so it keeps its id
 * over resets; a parcel already stored (a database file started before) is left as it is.
 * Throws a SeedError naming the report the API would refuse (e.g. an event after delivery).
 */
export function applySeedParcels(repo: Repository, seed: ValidSeed, nowS: number): void {
  repo.transaction(() => {
    seed.organisations.forEach((org, i) => {
      org.parcels?.forEach((seedParcel, j) => {
        const at = `organisations.${i}.parcels.${j}`;
        const entryId = seedParcel.entry_id?.toLowerCase() ?? derivedUuid(`seed:${org.id}:${j}`);
        if (repo.getParcelAnyOrg(entryId) !== undefined) return;
        let parcel = repo.createParcel(org.id, entryId, createFields(seedParcel), nowS);
        for (const report of reportsInTimeOrder(seedParcel, at)) {
          try {
            parcel = store(repo, parcel, report, nowS);
          } catch (err) {
            if (err instanceof SandboxError) throw new SeedError('invalid seed', [{ field: report.at, message: `${err.message} (${err.code})` }]);
            throw err;
          }
        }
      });
    });
  });
}
