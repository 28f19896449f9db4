import { mulberry32 } from '../faults/rates.js';
import type { PlannedStep } from '../store/types.js';
import type { ScenarioStep, TrackingFaultOptions } from './types.js';

const MIN_LATE_MS = 5 * 60_000;
const MAX_LATE_MS = 6 * 3_600_000;

/** The random numbers of a run: the sandbox's scenario seed mixed with the run number. */
export function runRandom(seed: number, runNo: number): () => number {
  return mulberry32((seed ^ Math.imul(runNo, 0x9e3779b1)) >>> 0);
}

/** Walks the steps from `t`, choosing one branch of each choice with `random`, into `out`. Returns the time reached. */
function walk(steps: readonly ScenarioStep[], t: number, random: () => number, out: PlannedStep[]): number {
  for (const step of steps) {
    t += step.after;
    if ('branch' in step) {
      const total = step.branch.reduce((sum, b) => sum + b.weight, 0);
      let pick = random() * total;
      const chosen = step.branch.find((b) => (pick -= b.weight) < 0) ?? (step.branch[step.branch.length - 1] as (typeof step.branch)[number]);
      t = walk(chosen.steps, t, random, out);
      continue;
    }
    const report = 'event' in step ? { event: step.event } : { attempt: step.attempt };
    out.push({ atMs: t, occurredMs: t - step.lateBy, report, copies: 1 });
  }
  return t;
}

/**
 * A scenario's steps resolved into the reports that will arrive: branches chosen and the tracking
 * faults drawn (four numbers per report, whatever the rates, so a seed replays the same plan).
 */
export function resolvePlan(steps: readonly ScenarioStep[], random: () => number, faults: TrackingFaultOptions): PlannedStep[] {
  const plan: PlannedStep[] = [];
  walk(steps, 0, random, plan);
  let swappedLast = false;
  plan.forEach((step, n) => {
    const [dup, late, lag, reorder] = [random(), random(), random(), random()];
    if (dup < (faults.duplicateRate ?? 0)) step.copies = 2;
    if (late < (faults.lateRate ?? 0)) step.occurredMs = step.atMs - (MIN_LATE_MS + Math.floor(lag * (MAX_LATE_MS - MIN_LATE_MS)));
    const next = plan[n + 1];
    if (!swappedLast && next !== undefined && reorder < (faults.reorderRate ?? 0)) {
      // This report arrives just after the next one; each keeps the time it was observed.
      [step.atMs, next.atMs] = [next.atMs, step.atMs];
      swappedLast = true;
    } else {
      swappedLast = false;
    }
  });
  return plan.sort((a, b) => a.atMs - b.atMs);
}
