/**
 * The one clock every time a person reads goes through: on a terminal, local time with its offset
 * (`2026-11-22T20:57:47+01:00`, or UTC with `--utc`); piped and in JSON, UTC ISO 8601 as the
 * service sends it. Ages (`3m ago`) and durations (`2h`) are written here too.
 */

/**
 * The zone a person's terminal shows times in: UTC with `--utc`, else `TZ` when it names an IANA
 * zone, else the system's own zone.
 */
export function displayZone(env: NodeJS.ProcessEnv, utc: boolean): string {
  if (utc) return 'UTC';
  const tz = env.TZ;
  if (tz !== undefined && tz !== '' && zonedFormatter(tz) !== undefined) return tz;
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** The zone times on stdout are shown in: the display zone on a terminal, none (UTC ISO 8601) when piped. */
export function stdoutZone(stdoutIsTTY: boolean, env: NodeJS.ProcessEnv, utc: boolean): string | undefined {
  return stdoutIsTTY ? displayZone(env, utc) : undefined;
}

const formatters = new Map<string, Intl.DateTimeFormat | undefined>();

/** One formatter per zone (a long --all list formats thousands of times); undefined for a zone Intl does not know. */
function zonedFormatter(timeZone: string): Intl.DateTimeFormat | undefined {
  if (!formatters.has(timeZone)) {
    let formatter: Intl.DateTimeFormat | undefined;
    try {
      formatter = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        timeZoneName: 'longOffset',
      });
    } catch {
      formatter = undefined;
    }
    formatters.set(timeZone, formatter);
  }
  return formatters.get(timeZone);
}

/** `2026-11-22T20:57:47+01:00` in `timeZone` (`Z` where the offset is zero). */
export function zonedIso(seconds: number, timeZone: string): string {
  const formatter = zonedFormatter(timeZone);
  if (formatter === undefined) return isoSeconds(seconds);
  const part: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const { type, value } of formatter.formatToParts(new Date(seconds * 1000))) part[type] = value;
  const offset = (part.timeZoneName ?? 'GMT').replace(/^GMT/, '');
  const zone = offset === '' || offset === '+00:00' ? 'Z' : offset;
  return `${part.year}-${part.month}-${part.day}T${part.hour}:${part.minute}:${part.second}${zone}`;
}

/** A timestamp for a person: in `timeZone` when given, else UTC. */
export function timeText(seconds: number, timeZone: string | undefined): string {
  return timeZone === undefined ? isoSeconds(seconds) : zonedIso(seconds, timeZone);
}

/** `2026-11-22T19:57:47Z` */
export function isoSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A UTC ISO 8601 time as services and the sandbox write it (`2026-11-22T19:57:47.123Z`). */
const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/;

/** The Unix seconds of a UTC ISO 8601 time (milliseconds dropped); undefined for any other text. */
export function isoUtcSeconds(text: string): number | undefined {
  if (!ISO_UTC.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : undefined;
}

/** `45s`, `3m`, `2h`, `5d`, `2mo`, `1y`: how long `seconds` is, in its largest whole unit. */
export function durationText(seconds: number): string {
  const abs = Math.abs(seconds);
  if (abs < 60) return `${Math.floor(abs)}s`;
  if (abs < 3600) return `${Math.floor(abs / 60)}m`;
  if (abs < 86_400) return `${Math.floor(abs / 3600)}h`;
  if (abs < 86_400 * 60) return `${Math.floor(abs / 86_400)}d`;
  if (abs < 86_400 * 365) return `${Math.floor(abs / (86_400 * 30))}mo`;
  return `${Math.floor(abs / (86_400 * 365))}y`;
}

/** `3m ago`, `in 2h`, `just now`. */
export function relativeTime(seconds: number, now: number): string {
  const diff = now - seconds;
  if (Math.abs(diff) < 1) return 'just now';
  const amount = durationText(diff);
  return diff > 0 ? `${amount} ago` : `in ${amount}`;
}
