import type { DeliveredAddress } from '../../schemas/history.js';

/** One step of a scenario as written: a delay, then a report (event or attempt) or a seeded choice between branches. */
export type ScenarioStep =
  | { after: number; lateBy: number; event: number }
  | { after: number; lateBy: number; attempt: { outcome: number; reason: number; delivered?: DeliveredAddress } }
  | { after: number; branch: Array<{ weight: number; steps: ScenarioStep[] }> };

export interface ScenarioDefinition {
  description: string;
  steps: ScenarioStep[];
}

/** Which new parcels get a scenario: the first rule that matches wins. */
export interface ScenarioRule {
  scenario: string;
  /** Courier code, exact. */
  courier?: string;
  /** Regular expression matched against the whole postal code. */
  postalCode?: RegExp;
}

/** Tracking-level faults applied to the reports scenarios make (shares 0..1, drawn with the run's seed). */
export interface TrackingFaultOptions {
  /** Share of reports sent twice. */
  duplicateRate?: number;
  /** Share of reports whose observation time lies 5 minutes to 6 hours before their arrival. */
  lateRate?: number;
  /** Share of reports that arrive after the report following them. */
  reorderRate?: number;
}

export interface ScenarioCatalogue {
  scenarios: ReadonlyMap<string, ScenarioDefinition>;
  rules: readonly ScenarioRule[];
  /** Seeds every run's random choices (with the run number). */
  seed: number;
}
