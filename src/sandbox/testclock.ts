import type { ClockStateSource, TestClockState, TimeSources } from './clock.js';
import { dataTimeAt } from './clock.js';
import type { ClockStatus } from '../schemas/sandbox-admin.js';
import type { Repository } from './store/types.js';

/** A request to move the test clock that cannot be honoured (backwards, bad number). */
export class ClockError extends Error {
  override readonly name = 'ClockError';
}

const MAX_SPEED = 1_000_000;
/** 9999-12-31T23:59:59.999Z: later times have no ISO 8601 (or HTTP Date) form. */
const LATEST_MS = 253_402_300_799_999;

/**
 * The run-time controllable data clock, stored in the database (a `meta` row) so that it survives
 * restarts and every process on the file sees the same time. It only moves forward. `refresh`
 * re-reads the state when another connection committed (the repository's dataVersion); the sandbox calls it
 * before serving each request (with the change check of its batch, intake.ts), so a change made by
 * another process is seen by the next request.
 */
export class TestClock implements ClockStateSource {
  private state: TestClockState | undefined;
  private seenVersion = -1;
  private skippedMs = 0;

  constructor(
    private readonly repo: Repository,
    private readonly sources: TimeSources,
    /** This process's --clock-offset, in ms: shown times include it, stored ones do not. */
    private readonly offsetMs: number,
  ) {}

  /** The state as last refreshed (no database read: the request path refreshes before each request). */
  current(): TestClockState | undefined {
    return this.state;
  }

  /** Re-reads the stored state if another connection committed since (`version`: the repository's dataVersion, if already read). */
  refresh(version = this.repo.dataVersion()): void {
    if (version !== this.seenVersion) {
      this.state = this.repo.readClock();
      this.seenVersion = version;
    }
  }

  /** Forgets the state it keeps: after a reset deleted the stored clock (a private database's version never changes). */
  forget(): void {
    this.state = undefined;
    this.seenVersion = -1;
  }

  status(): ClockStatus {
    this.refresh();
    const state = this.state;
    const ms = dataTimeAt(state, this.sources.wallMs()) + this.offsetMs;
    return { now_ms: ms, now: new Date(ms).toISOString(), frozen: state?.frozen ?? false, speed: state?.speed ?? 1 };
  }

  /**
   * How the test clock differs from real time, for the Parcels-Test-Clock header (schemas/headers.ts): `moved`,
   * `frozen` and/or `speed=N`, joined with ", "; undefined while it runs as real time (as it does
   * until first changed). From the state as last refreshed: no database read.
   */
  changed(): string | undefined {
    const state = this.state;
    if (state === undefined) return undefined;
    const how: string[] = [];
    if (state.anchorDataMs !== state.anchorWallMs) how.push('moved');
    if (state.frozen) how.push('frozen');
    if (state.speed !== 1) how.push(`speed=${state.speed}`);
    return how.length === 0 ? undefined : how.join(', ');
  }

  /** Moves data time forward by `ms` milliseconds (0 or more). */
  advance(ms: number): ClockStatus {
    if (!Number.isSafeInteger(ms) || ms < 0) throw new ClockError(`the clock only moves forward: advance by a whole number of milliseconds ≥ 0 (got ${ms})`);
    return this.change((state, dataMs) => ({ ...state, anchorDataMs: dataMs + ms }), ms);
  }

  /** Sets data time to `ms` (epoch milliseconds); never earlier than now. */
  set(ms: number): ClockStatus {
    if (!Number.isSafeInteger(ms)) throw new ClockError(`the time must be whole epoch milliseconds (got ${ms})`);
    return this.change((state, dataMs) => {
      const target = ms - this.offsetMs;
      if (target < dataMs) {
        throw new ClockError(`the clock only moves forward: ${new Date(ms).toISOString()} is before the sandbox's now, ${new Date(dataMs + this.offsetMs).toISOString()}`);
      }
      return { ...state, anchorDataMs: target };
    }, (dataMs) => ms - this.offsetMs - dataMs);
  }

  /**
   * How far advance() and set() of this process moved data time forward, in ms: rate-limit windows
   * (on elapsed time) move on by as much, so a test moves past a window instead of sleeping through it.
   */
  skipped(): number {
    return this.skippedMs;
  }

  /** Stops (true) or restarts (false) data time; elapsed time keeps running either way. */
  freeze(frozen: boolean): ClockStatus {
    return this.change((state) => ({ ...state, frozen }));
  }

  /** Runs data time `speed` times real time (1 = real time). */
  setSpeed(speed: number): ClockStatus {
    if (typeof speed !== 'number' || !Number.isFinite(speed) || speed <= 0 || speed > MAX_SPEED) {
      throw new ClockError(`the speed must be a number above 0 and at most ${MAX_SPEED} (got ${String(speed)})`);
    }
    return this.change((state) => ({ ...state, speed }));
  }

  /**
   * Re-anchors the state at the current instant, applies `edit`, and stores it in one write
   * transaction; `skip` (ms, or computed from data time before the change) counts as skipped once stored.
   */
  private change(edit: (state: TestClockState, dataMs: number) => TestClockState, skip: number | ((dataMs: number) => number) = 0): ClockStatus {
    let skipped = 0;
    this.repo.transaction(() => {
      const stored = this.repo.readClock();
      const wall = this.sources.wallMs();
      const dataMs = dataTimeAt(stored, wall);
      const anchored: TestClockState = { anchorDataMs: dataMs, anchorWallMs: wall, speed: stored?.speed ?? 1, frozen: stored?.frozen ?? false };
      const next = edit(anchored, dataMs);
      skipped = typeof skip === 'number' ? skip : skip(dataMs);
      if (next.anchorDataMs + this.offsetMs > LATEST_MS) throw new ClockError('the clock cannot go past 9999-12-31T23:59:59Z');
      this.repo.writeClock(next);
      this.state = next;
    });
    this.skippedMs += skipped;
    this.seenVersion = this.repo.dataVersion();
    return this.status();
  }
}
