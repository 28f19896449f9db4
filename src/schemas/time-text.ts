/**
 * How every time, age and duration is written for a person, by the CLI, the sandbox and the
 * sandbox's inspector page alike (pure TypeScript and Intl: no Node API, so the browser page can
 * import it). Which zone a reader's times are shown in is the CLI's own question (src/io/time.ts).
 *
 * Times: `2026-11-22T20:57:47+01:00` in a zone, `2026-11-22T19:57:47Z` in UTC (whole seconds);
 * on a person's terminal, where a table has no room for that, compact: `today 20:57`, `21 Nov
 * 20:57`, `21 Nov 2025 20:57` (compactTime).
 * Durations: one set of units, s m h d (then mo and y for ages), the letters the duration flags
 * take (`--older-than 7d`), written two ways only: packed into a table cell or a progress bar
 * (`3m`, one unit), and spaced in a sentence (`1 h 15 m`, `42 s`, `0.4 s`). Whole seconds are
 * rounded down.
 */

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

/** Whether Intl knows `timeZone` (an IANA name such as `Europe/Amsterdam`). */
export function knownZone(timeZone: string): boolean {
  return zonedFormatter(timeZone) !== undefined;
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

const compactFormatters = new Map<string, Intl.DateTimeFormat>();

/** The date and minute of a time in `timeZone`, as compactTime writes them (`zonedIso`'s zone when Intl does not know it: UTC). */
function localParts(seconds: number, timeZone: string): Partial<Record<Intl.DateTimeFormatPartTypes, string>> {
  const zone = knownZone(timeZone) ? timeZone : 'UTC';
  let formatter = compactFormatters.get(zone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
    compactFormatters.set(zone, formatter);
  }
  const part: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const { type, value } of formatter.formatToParts(new Date(seconds * 1000))) part[type] = value;
  return part;
}

/**
 * A time on a person's terminal, to the minute, as gh and kubectl keep a table narrow: `today
 * 19:45` on the day of `now` in `timeZone`, `27 Nov 19:45` in its year, `27 Nov 2025 19:45` in
 * another. The whole time is in `-o wide`, piped output and JSON.
 */
export function compactTime(seconds: number, timeZone: string, now: number): string {
  const at = localParts(seconds, timeZone);
  const today = localParts(now, timeZone);
  const clock = `${at.hour}:${at.minute}`;
  if (at.year === today.year && at.month === today.month && at.day === today.day) return `today ${clock}`;
  return at.year === today.year ? `${at.day} ${at.month} ${clock}` : `${at.day} ${at.month} ${at.year} ${clock}`;
}

/** A timestamp for a person: in `timeZone` when given, else UTC. */
export function timeText(seconds: number, timeZone: string | undefined): string {
  return timeZone === undefined ? isoSeconds(seconds) : zonedIso(seconds, timeZone);
}

/** `2026-11-22T19:57:47Z` (a fraction of a second dropped). */
export function isoSeconds(seconds: number): string {
  return new Date(Math.floor(seconds) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A UTC ISO 8601 time as services and the sandbox write it (`2026-11-22T19:57:47.123Z`). */
const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/;

/** The Unix seconds of a UTC ISO 8601 time (milliseconds dropped); undefined for any other text. */
export function isoUtcSeconds(text: string): number | undefined {
  if (!ISO_UTC.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : undefined;
}

const DAY = 86_400;

/** The units, largest first, each with the length from which it leads (45 days are `45d`, 60 are `2mo`). */
const UNITS: readonly { unit: string; size: number; leadsFrom: number }[] = [
  { unit: 'y', size: 365 * DAY, leadsFrom: 365 * DAY },
  { unit: 'mo', size: 30 * DAY, leadsFrom: 60 * DAY },
  { unit: 'd', size: DAY, leadsFrom: DAY },
  { unit: 'h', size: 3600, leadsFrom: 3600 },
  { unit: 'm', size: 60, leadsFrom: 60 },
  { unit: 's', size: 1, leadsFrom: 0 },
];

/** The whole units of `seconds` (its sign dropped): at most `parts` of them, from the leading one down, zeros left out. */
function durationParts(seconds: number, parts: number): [number, string][] {
  let rest = Math.floor(Math.abs(seconds));
  const lead = UNITS.findIndex((u) => rest >= u.leadsFrom);
  const shown: [number, string][] = [];
  for (const { unit, size } of UNITS.slice(lead, lead + parts)) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0) shown.push([n, unit]);
  }
  return shown.length === 0 ? [[0, 's']] : shown;
}

/** In a table cell or a progress bar: `45s`, `3m`, `2h`, `5d`, `2mo`, `1y`; with `parts`, `1h15m`. */
export function durationText(seconds: number, parts = 1): string {
  return durationParts(seconds, parts)
    .map(([n, unit]) => `${n}${unit}`)
    .join('');
}

/** In a sentence: `42 s`, `1 h 15 m`, `7 d 17 h` (the two largest units; `parts` says how many). */
export function spokenDuration(seconds: number, parts = 2): string {
  return durationParts(seconds, parts)
    .map(([n, unit]) => `${n} ${unit}`)
    .join(' ');
}

/** How long something took, in a sentence, to a tenth of a second: `0.4 s`, `12.0 s`. */
export function elapsedText(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** A wait about to start, said as it is: `0.4 s` for 400 ms (never "1 s" for a tenth of that), `55 s`, `1 m 30 s`. */
export function waitText(ms: number): string {
  return ms < 1000 ? elapsedText(ms) : spokenDuration(Math.ceil(ms / 1000));
}

/** An age in a cell: `3m` (an age below zero, from a clock that moved back, is `0s`). */
export function ageText(ageSeconds: number): string {
  return durationText(Math.max(0, ageSeconds));
}

/** `3m ago`, `in 2h`, `just now`; `duration` writes the amount (default: as in a cell). */
export function relativeTime(seconds: number, now: number, duration: (seconds: number) => string = durationText): string {
  const diff = now - seconds;
  if (Math.abs(diff) < 1) return 'just now';
  const amount = duration(diff);
  return diff > 0 ? `${amount} ago` : `in ${amount}`;
}
