import type { ScopeState } from '../api/probe.js';
import type { ExitCode } from '../errors.js';
import { EXIT } from '../errors.js';
import type { SettingSource } from '../config/settings.js';
import type { Scope } from '../schemas/routes.js';

export type CheckStatus = 'ok' | 'warning' | 'failure' | 'skipped';

/** One line of the report. A failure carries the exit code of its class. */
export interface CheckResult {
  check: string;
  result: CheckStatus;
  detail: string;
  /** What to type (or do) about a warning or failure. */
  fix?: string;
  exit_code?: ExitCode;
}

/** `parcels doctor --json`: one object, also when something failed. */
export interface DoctorReport {
  ok: boolean;
  /** 0, or the exit code of the most serious failure: the first failed check in report order. */
  exit_code: ExitCode;
  profile: string | null;
  profile_from: SettingSource | null;
  base_url: string | null;
  base_url_from: SettingSource | null;
  api_key_from: SettingSource | null;
  /** Milliseconds to the couriers probe's whole (small) answer; null when it had none. */
  latency_ms: number | null;
  /** Service clock minus local clock, seconds; null when no answer carried a Date header. */
  clock_skew_s: number | null;
  scopes: Record<Scope, ScopeState>;
  checks: CheckResult[];
}

export const ok = (check: string, detail: string): CheckResult => ({ check, result: 'ok', detail });
export const skipped = (check: string, detail: string): CheckResult => ({ check, result: 'skipped', detail });
export const warning = (check: string, detail: string, fix: string): CheckResult => ({ check, result: 'warning', detail, fix });
export const failure = (check: string, detail: string, fix: string, exitCode: ExitCode): CheckResult => ({
  check,
  result: 'failure',
  detail,
  fix,
  exit_code: exitCode,
});

/**
 * The exit code of a set of checks. Checks are listed in the order they depend on each other
 * (settings, then the host, the key, scopes, clock, local files), so the first failure is the most
 * serious: later ones are often its consequences.
 */
export function exitCodeOf(checks: readonly CheckResult[]): ExitCode {
  return checks.find((c) => c.result === 'failure')?.exit_code ?? EXIT.OK;
}
