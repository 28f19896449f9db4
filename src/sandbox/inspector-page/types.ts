/** The JSON the inspector's routes answer (docs/sandbox.md, "The web inspector"). */

export interface ClockStatus {
  now_ms: number;
  now: string;
  frozen: boolean;
  speed: number;
}

export interface Code {
  code: number;
  name: string;
}

export interface Overview {
  organisations: Array<{ id: string; name: string; verified: boolean; couriers: Array<{ code: string; name: string }> }>;
  reference: { statuses: Code[]; outcomes: Code[]; reasons: Code[]; location_types: Code[]; service_types: Code[] };
  clock: ClockStatus;
}

export interface Parcel {
  entry_id: string;
  org_id: string;
  courier: string;
  country: string;
  postal_code: string;
  number: string;
  addition: string | null;
  status: number;
  created_at: number;
  updated_at: number;
  scenario?: string | null;
  [field: string]: unknown;
}

export interface RunStep {
  arrives_at: number;
  occurred_at: number;
  event?: number;
  attempt?: { outcome: number; reason: number };
  copies: number;
  applied: boolean;
}

export interface ScenarioRun {
  entry_id: string;
  scenario: string;
  run: number;
  started_at: number;
  steps: RunStep[];
  refused: Array<{ step: number; code: string }>;
  done: boolean;
}

export interface ParcelDetail {
  parcel: Parcel;
  events: unknown[];
  attempts: unknown[];
  scenario: ScenarioRun | null;
}

export interface LogEntry {
  seq: number;
  at: string;
  method: string;
  path: string;
  org: string | null;
  status: number | null;
  code: string | null;
  replay: boolean;
  latency_ms: number;
  request_body?: string;
  response_body?: string;
}

export type ScenarioStep =
  | { after: number; lateBy: number; event: number }
  | { after: number; lateBy: number; attempt: { outcome: number; reason: number } }
  | { after: number; branch: Array<{ weight: number; steps: ScenarioStep[] }> };

export interface ScenarioDefinition {
  name: string;
  description: string;
  builtin: boolean;
  steps: ScenarioStep[];
}

export interface UsageReport {
  organisations: Array<{ id: string; name: string; days: Array<{ date: string; requests: number; errors: number }> }>;
}
