import { STATE_FIELDS } from '../schemas/required-state.js';
import type { LineRequest } from './build.js';
import type { BulkKind } from './types.js';

/**
 * Lines of an events or attempts file that repeat an earlier line's parcel and status (outcome): a
 * double scan. Found on every run and reported; with --once-per-parcel they are skipped, so a
 * parcel's status is sent once.
 */

/** Repeated lines named in the summary, at most (the rest are counted). */
const KEPT = 5;

export interface RepeatReport {
  /** The first repeated lines. */
  lines: number[];
  count: number;
  /** --once-per-parcel: a repeat not sent before is skipped rather than sent again. */
  oncePerParcel: boolean;
  /** The repeats skipped (the others an earlier run had sent: they keep that outcome). */
  skipped: number;
}

export class Repeats {
  private readonly first = new Map<string, number>();
  readonly report: RepeatReport;

  constructor(
    private readonly kind: Exclude<BulkKind, 'create'>,
    skip: boolean,
  ) {
    this.report = { lines: [], count: 0, oncePerParcel: skip, skipped: 0 };
  }

  /** The earlier line this one repeats (and counts it), or undefined (it is the first). */
  check(request: LineRequest): number | undefined {
    const key = this.keyOf(request);
    const earlier = this.first.get(key);
    if (earlier === undefined) {
      this.first.set(key, request.line);
      return undefined;
    }
    this.report.count++;
    if (this.report.lines.length < KEPT) this.report.lines.push(request.line);
    return earlier;
  }

  /** Takes back what `check` counted for a line that turned out invalid. */
  forget(request: LineRequest, earlier: number | undefined): void {
    if (earlier === undefined) {
      this.first.delete(this.keyOf(request));
      return;
    }
    this.report.count--;
    const at = this.report.lines.indexOf(request.line);
    if (at !== -1) this.report.lines.splice(at, 1);
  }

  /** Skips a repeat: the reason its result line gives. */
  skip(earlier: number): string {
    this.report.skipped++;
    return `repeats line ${earlier}: the same parcel and ${STATE_FIELDS[this.kind].field} (--once-per-parcel)`;
  }

  private keyOf(request: LineRequest): string {
    return `${request.parcel ?? ''}\0${JSON.stringify(request.fields[STATE_FIELDS[this.kind].field] ?? null)}`;
  }
}
