import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Arrived } from '../../src/sandbox/intake.js';
import { RequestIntake } from '../../src/sandbox/intake.js';

/** Queued flushes, run when the test says so (a turn of the event loop). */
function manualSchedule(): { schedule: (flush: () => void) => void; run(): void; pending(): number } {
  const queue: Array<() => void> = [];
  return { schedule: (flush) => queue.push(flush), run: () => queue.splice(0).forEach((f) => f()), pending: () => queue.length };
}

/** A stand-in request: the intake only hands it over, it never reads it. */
function arrived(url: string, arrivedMs: number): Arrived {
  return { req: { url } as IncomingMessage, res: {} as ServerResponse, arrivedMs, route: undefined };
}

describe('request intake: one change check per turn, made after the turn’s reads', () => {
  it('holds the requests of a turn, then checks once and serves them in arrival order with that check', () => {
    const turn = manualSchedule();
    const events: string[] = [];
    let version = 7;
    const intake = new RequestIntake(
      () => {
        events.push(`check ${version}`);
        return version;
      },
      (r, v) => events.push(`serve ${r.req.url} at ${r.arrivedMs} with ${v}`),
      turn.schedule,
    );
    intake.accept(arrived('/a', 1));
    intake.accept(arrived('/b', 2));
    // A commit by another process after /b was read and before the turn's check: both see it.
    version = 8;
    intake.accept(arrived('/c', 3));
    expect(turn.pending()).toBe(1);
    expect(events).toEqual([]);
    turn.run();
    expect(events).toEqual(['check 8', 'serve /a at 1 with 8', 'serve /b at 2 with 8', 'serve /c at 3 with 8']);
  });

  it('a request read while a batch is served waits for a check of its own', () => {
    const turn = manualSchedule();
    const events: string[] = [];
    let version = 1;
    const intake: RequestIntake<number> = new RequestIntake(
      () => {
        events.push(`check ${version}`);
        return version;
      },
      (r, v) => {
        events.push(`serve ${r.req.url} with ${v}`);
        if (r.req.url === '/first') {
          version = 2;
          intake.accept(arrived('/second', 5));
        }
      },
      turn.schedule,
    );
    intake.accept(arrived('/first', 4));
    turn.run();
    expect(events).toEqual(['check 1', 'serve /first with 1']);
    expect(turn.pending()).toBe(1);
    turn.run();
    expect(events).toEqual(['check 1', 'serve /first with 1', 'check 2', 'serve /second with 2']);
  });

  it('flush serves what is held now (on close) and checks nothing when nothing is held', () => {
    const turn = manualSchedule();
    let checks = 0;
    const served: string[] = [];
    const intake = new RequestIntake(
      () => ++checks,
      (r) => served.push(r.req.url ?? ''),
      turn.schedule,
    );
    intake.flush();
    expect(checks).toBe(0);
    intake.accept(arrived('/held', 1));
    intake.flush();
    expect(served).toEqual(['/held']);
    expect(checks).toBe(1);
    // The turn's scheduled flush finds nothing left.
    turn.run();
    expect(checks).toBe(1);
  });
});
