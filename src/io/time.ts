/**
 * The zone a person's times are shown in: on a terminal, local time with its offset
 * (`2026-11-22T20:57:47+01:00`, or UTC with `--utc`); piped and in JSON, UTC ISO 8601 as the
 * service sends it. How times, ages and durations are written: src/schemas/time-text.ts.
 */
import { knownZone } from '../schemas/time-text.js';

/**
 * The zone a person's terminal shows times in: UTC with `--utc`, else `TZ` when it names an IANA
 * zone, else the system's own zone.
 */
export function displayZone(env: NodeJS.ProcessEnv, utc: boolean): string {
  if (utc) return 'UTC';
  const tz = env.TZ;
  if (tz !== undefined && tz !== '' && knownZone(tz)) return tz;
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** The zone times on stdout are shown in: the display zone on a terminal, none (UTC ISO 8601) when piped. */
export function stdoutZone(stdoutIsTTY: boolean, env: NodeJS.ProcessEnv, utc: boolean): string | undefined {
  return stdoutIsTTY ? displayZone(env, utc) : undefined;
}
