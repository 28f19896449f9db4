/** How the page writes times, durations and codes. Times are the viewer's local time. */
import type { Code, Overview } from '../../schemas/inspector.js';
import { relativeTime, spokenDuration } from '../../schemas/time-text.js';

const LOCAL = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** A Unix time (seconds) or epoch ms as local date and time. */
export function localTime(value: number, unit: 's' | 'ms' = 's'): string {
  return LOCAL.format(new Date(unit === 's' ? value * 1000 : value));
}

/** A duration in ms as "1 d 4 h 15 m", through the one time module (schemas/time-text.ts). */
export function duration(ms: number): string {
  return spokenDuration(Math.abs(ms) / 1000, 3);
}

/** "in 2 h" or "15 m ago" from the test clock's now (seconds). */
export function relative(at: number, nowS: number): string {
  return relativeTime(at, nowS, (seconds) => spokenDuration(seconds, 3));
}

/** Code → name tables from the sandbox's reference data. */
export class Names {
  private readonly tables: Record<'status' | 'outcome' | 'reason', Map<number, string>>;

  constructor(reference: Overview['reference']) {
    const table = (codes: readonly Code[]) => new Map(codes.map((c) => [c.code, c.name]));
    this.tables = { status: table(reference.statuses), outcome: table(reference.outcomes), reason: table(reference.reasons) };
  }

  /** The name of a code, or the code itself when the table lacks it. */
  of(kind: 'status' | 'outcome' | 'reason', code: number): string {
    return this.tables[kind].get(code) ?? `code ${code}`;
  }

  statuses(): Array<[number, string]> {
    return [...this.tables.status];
  }
}
