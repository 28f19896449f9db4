import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ScenarioFileError, loadScenarioFile, manualTime, parseScenarioFile, startSandbox } from '../../src/sandbox/index.js';
import { mulberry32 } from '../../src/sandbox/faults/rates.js';
import { resolvePlan } from '../../src/sandbox/scenarios/plan.js';
import { BUILTIN_SCENARIOS } from '../../src/sandbox/scenarios/builtin.js';
import { TEST_SEED, call, createParcel } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'sandbox-scenario-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const START = Date.UTC(2026, 10, 2, 12, 0, 0);
const START_S = START / 1000;

const FLAKY = `{
  "seed": 42,
  "scenarios": {
    "flaky-van": {
      "description": "in transit, then a coin toss: delivered, or one failure and delivered the next day",
      "steps": [
        { "after": "10m", "event": 2 },
        { "after": "1h", "branch": [
          { "weight": 1, "steps": [ { "after": "30m", "attempt": { "outcome": 0, "reason": 0 } } ] },
          { "weight": 1, "steps": [
            { "after": "30m", "attempt": { "outcome": 1, "reason": 1 } },
            { "after": "1d", "event": 3, "late_by": "2h" },
            { "after": "1h", "attempt": { "outcome": 0, "reason": 0 } }
          ] }
        ] }
      ]
    }
  },
  "rules": [ { "courier": "A-VAN", "scenario": "flaky-van" } ]
}
`;

function errorOf(text: string): string {
  try {
    parseScenarioFile(text, 'flows.json');
  } catch (err) {
    if (err instanceof ScenarioFileError) return err.message;
    throw err;
  }
  throw new Error('the file was accepted');
}

describe('custom scenario files', () => {
  it('a broken file: every problem with its line and the rule', () => {
    const broken = FLAKY.replace('"after": "10m", "event": 2', '"after": "10 minutes", "event": 7')
      .replace('"weight": 1, "steps": [ { "after": "30m", "attempt": { "outcome": 0', '"weight": 0, "steps": [ { "after": "30m", "attempt": { "outcome": 9')
      .replace('"scenario": "flaky-van"', '"scenario": "flaky-bike"');
    expect(errorOf(broken)).toBe(
      [
        'invalid scenario file flows.json:',
        '  line 7: scenarios.flaky-van.steps.0.after: must be a duration like "90s", "15m", "2h" or "1d"',
        '  line 7: scenarios.flaky-van.steps.0.event: must be a status an event may report: an integer from 0 to 3',
        '  line 9: scenarios.flaky-van.steps.1.branch.0.weight: must be an integer from 1 to 1000000',
        '  line 9: scenarios.flaky-van.steps.1.branch.0.steps.0.attempt.outcome: must be an integer from 0 to 4',
        '  line 19: rules.0.scenario: must name a built-in scenario or one of this file (happy, failed-then-delivered, three-failures-returned, delivered-elsewhere, refused, late, out-of-order, flaky-van)',
      ].join('\n'),
    );
  });

  it('syntax errors, unknown fields, built-in names, a missing kind and a bad delivered address', () => {
    expect(errorOf('{\n  "scenarios": {\n    "a": { "steps": [ ] },\n  }\n}')).toBe('invalid scenario file flows.json:\n  line 4: not valid JSON: expected a property name in double quotes, found character "}"');
    expect(errorOf('{\n "scenarios": {\n  "happy": { "steps": [ { "after": "1h", "event": 1 } ] },\n  "x": { "steps": [ { "after": "1h" } ], "colour": 1 },\n  "y": { "steps": [ { "attempt": { "outcome": 1, "reason": 1, "delivered": { "delivered_country": "BE" } } } ] }\n },\n "extra": true\n}')).toBe(
      [
        'invalid scenario file flows.json:',
        '  line 7: extra: is not an allowed field (allowed: seed, scenarios, rules)',
        '  line 3: scenarios.happy: "happy" is a built-in scenario; choose another name',
        '  line 4: scenarios.x.colour: is not an allowed field (allowed: description, steps)',
        '  line 4: scenarios.x.steps.0: must have exactly one of "event", "attempt" or "branch" (found none)',
        '  line 5: scenarios.y.steps.0.attempt.delivered: is allowed only when outcome is 0 (delivered) or 2 (delivered elsewhere)',
        '  line 5: scenarios.y.steps.0.attempt.delivered.delivered_country: must be exactly "NL" (upper case)',
        '  line 5: scenarios.y.steps.0.attempt.delivered.delivered_postal_code: is required',
        '  line 5: scenarios.y.steps.0.attempt.delivered.delivered_number: is required',
      ].join('\n'),
    );
    expect(() => loadScenarioFile(join(dir, 'missing.json'))).toThrow(`cannot read scenario file ${join(dir, 'missing.json')}: ENOENT`);
  });

  it('runs: a rule picks the scenario, the seeded branch decides, and the same seed gives the same lives', async () => {
    const file = join(dir, 'flows.json');
    writeFileSync(file, FLAKY);
    const lives = async () => {
      const s = await startSandbox({ seed: TEST_SEED, time: manualTime(START), frozen: true, scenarios: file });
      try {
        const ids: string[] = [];
        for (let i = 0; i < 6; i++) ids.push((await createParcel(s.url, { courier: 'A-VAN' })).body.data.entry_id as string);
        s.clock.advance(3 * 86_400_000);
        const out = [];
        for (const id of ids) {
          const events = (await call(s.url, 'GET', `/deliveries/v1/parcels/${id}/events`)).body.data.events as Array<{ status: number; occurred_at: number; recorded_at: number }>;
          const attempts = (await call(s.url, 'GET', `/deliveries/v1/parcels/${id}/attempts`)).body.data.attempts as Array<{ outcome: number }>;
          out.push({ events: events.map((e) => [e.status, e.occurred_at - START_S, e.recorded_at - START_S]), attempts: attempts.map((a) => a.outcome) });
        }
        return out;
      } finally {
        await s.close();
      }
    };
    const first = await lives();
    expect(await lives()).toEqual(first);
    const short = { events: [[2, 600, 600]], attempts: [0] };
    const long = { events: [[2, 600, 600], [3, 85_200, 92_400]], attempts: [1, 0] };
    for (const life of first) expect([short, long]).toContainEqual(life);
    expect(first.map((l) => l.attempts.length)).toEqual([1, 2, 1, 2, 1, 1]);
  });
});

describe('tracking faults', () => {
  it('appear at their rates with a seed (1000 plans of the happy scenario, four reports each)', () => {
    const steps = BUILTIN_SCENARIOS.get('happy')?.steps ?? [];
    const random = mulberry32(99);
    let duplicates = 0;
    let late = 0;
    let reordered = 0;
    for (let i = 0; i < 1000; i++) {
      const plan = resolvePlan(steps, random, { duplicateRate: 0.1, lateRate: 0.2, reorderRate: 0.05 });
      duplicates += plan.filter((p) => p.copies === 2).length;
      late += plan.filter((p) => p.occurredMs < p.atMs && p.atMs - p.occurredMs >= 5 * 60_000 && p.atMs - p.occurredMs <= 6 * 3_600_000).length;
      reordered += plan.some((p, n) => n > 0 && 'event' in p.report && 'event' in (plan[n - 1] as typeof p).report && ((plan[n - 1] as typeof p).report as { event: number }).event > (p.report as { event: number }).event) ? 1 : 0;
    }
    expect(duplicates / 4000).toBeCloseTo(0.1, 1);
    expect(late / 4000).toBeCloseTo(0.2, 1);
    expect(reordered).toBeGreaterThan(50);
    expect(reordered).toBeLessThan(200);
  });

  it('over HTTP: duplicated and late reports, out-of-order arrival, and a drifting Date header', async () => {
    const time = manualTime(START);
    const s = await startSandbox({ seed: TEST_SEED, time, frozen: true, tracking: { duplicateRate: 1, dateDriftSPerHour: 90 } });
    try {
      const id = (await createParcel(s.url, { postal_code: '9999HA' })).body.data.entry_id as string;
      s.clock.advance(4 * 3_600_000);
      const events = (await call(s.url, 'GET', `/deliveries/v1/parcels/${id}/events`)).body.data.events as Array<{ status: number; event_id: string }>;
      expect(events.map((e) => e.status)).toEqual([1, 1, 2, 2]);
      expect(new Set(events.map((e) => e.event_id)).size).toBe(4);
      time.advanceElapsed(3_600_000);
      expect((await call(s.url, 'GET', '/account/v1/couriers')).headers.get('date')).toBe('Mon, 02 Nov 2026 16:01:30 GMT');
    } finally {
      await s.close();
    }
    const late = await startSandbox({ seed: TEST_SEED, time: manualTime(START), frozen: true, tracking: { lateRate: 1, reorderRate: 1 } });
    try {
      const id = (await createParcel(late.url, { postal_code: '9999HA' })).body.data.entry_id as string;
      late.clock.advance(86_400_000);
      const events = (await call(late.url, 'GET', `/deliveries/v1/parcels/${id}/events`)).body.data.events as Array<{ status: number; occurred_at: number; recorded_at: number }>;
      // Reports arrive in swapped pairs (2 before 1; the delivered attempt before 3, which is then
      // refused), each observed 5 min to 6 h before it arrives.
      expect(events.map((e) => e.status)).toEqual([2, 1]);
      expect(late.scenarios.get(id)?.refused).toEqual([{ step: 3, code: 'parcel_delivered' }]);
      for (const e of events) expect(e.recorded_at - e.occurred_at).toBeGreaterThanOrEqual(300);
      for (const e of events) expect(e.recorded_at - e.occurred_at).toBeLessThanOrEqual(6 * 3600);
    } finally {
      await late.close();
    }
  });
});
