import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from './harness.js';
import { UUID, createParcel, expectNoSecrets, json, startHarness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  expectNoSecrets(h.seen);
  await h.close();
});

const NOW = Math.floor(Date.now() / 1000);

describe('events add', () => {
  it('by status name: a TSV record, a success line, and the parcel takes the status', async () => {
    const id = await createParcel(h);
    const r = await h.cli(['events', 'add', id, '--status', 'in_transit', '--at', String(NOW - 60)]);
    expect(r.code).toBe(0);
    const eventId = /^event_id\t(.+)$/m.exec(r.stdout)?.[1] as string;
    expect(eventId).toMatch(UUID);
    const iso = new Date((NOW - 60) * 1000).toISOString().replace('.000Z', 'Z');
    const recorded = /^recorded_at\t(.+)$/m.exec(r.stdout)?.[1] as string;
    expect(r.stdout).toBe(`event_id\t${eventId}\nentry_id\t${id}\nstatus\t2 in_transit\noccurred_at\t${iso}\nrecorded_at\t${recorded}\n`);
    expect(r.stderr).toBe(`✓ Recorded status event for parcel ${id}\n`);
    expect(json(await h.cli(['get', id, '--json'])).status).toBe(2);
  });

  it('by status number, with --at as ISO 8601 and as now', async () => {
    const id = await createParcel(h);
    const a = json(await h.cli(['events', 'add', id, '--status', '1', '--at', '2026-01-02T03:04:05Z', '--json']));
    expect(a).toMatchObject({ entry_id: id, status: 1, occurred_at: 1767323045 });
    const b = json(await h.cli(['events', 'add', id, '--status', '3', '--at', 'now', '--json'], { now: () => NOW }));
    expect(b).toMatchObject({ status: 3, occurred_at: NOW });
    const c = json(await h.cli(['events', 'add', id, '--status', 'registered', '--json'], { now: () => NOW }));
    expect(c).toMatchObject({ status: 0, occurred_at: NOW });
  });

  it('status 4 is rejected before sending (exit 2), also by --data', async () => {
    const id = await createParcel(h);
    expect(await h.cli(['events', 'add', id, '--status', '4'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'Error: --status 4 cannot be reported as a status event (only 0-3)\n' +
        `Hint: statuses 4 and 5 come from delivery attempts: \`parcels attempts add ${id} --outcome delivered\`\n`,
    });
    const d = await h.cli(['events', 'add', id, '--data', `{"status":5,"occurred_at":${NOW}}`]);
    expect(d.code).toBe(2);
    expect(d.stderr).toMatch(/^Error: status 5 cannot be reported as a status event \(only 0-3\)\n/);
    expect(await h.cli(['events', 'add', id, '--status', '7'])).toEqual({ code: 2, stdout: '', stderr: 'Error: --status must be between 0 and 3\n' });
    expect(json(await h.cli(['events', 'list', id, '--json'])).events).toEqual([]);
  });

  it('--at before 2000 or too far in the future → exit 2', async () => {
    const id = await createParcel(h);
    const old = await h.cli(['events', 'add', id, '--at', '1999-12-31T23:59:59Z']);
    expect(old.code).toBe(2);
    expect(old.stderr).toMatch(/^Error: --at /);
    const future = await h.cli(['events', 'add', id, '--at', String(NOW + 3600)]);
    expect(future.code).toBe(2);
    expect(future.stderr).toMatch(/^Error: --at /);
  });

  it('an unknown parcel → exit 4', async () => {
    const r = await h.cli(['events', 'add', '00000000-0000-4000-8000-000000000000', '--status', '1']);
    expect(r.code).toBe(4);
  });
});

describe('events list', () => {
  it('shows the events as a table, JSON and NDJSON', async () => {
    const id = await createParcel(h);
    const e1 = json(await h.cli(['events', 'add', id, '--status', 'picked_up', '--at', String(NOW - 120), '--json']));
    const e2 = json(await h.cli(['events', 'add', id, '--status', 'in_transit', '--at', String(NOW - 60), '--json']));
    const t = await h.cli(['events', 'list', id]);
    expect(t.code).toBe(0);
    const lines = t.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('entry_id\tevent_id\tstatus\toccurred_at\trecorded_at');
    expect(lines).toHaveLength(3);
    expect(lines.slice(1).map((l) => l.split('\t').slice(0, 3).join('\t')).sort()).toEqual(
      [`${id}\t${e1.event_id}\t1 picked_up`, `${id}\t${e2.event_id}\t2 in_transit`].sort(),
    );
    const j = json(await h.cli(['events', 'list', id, '--json']));
    expect(j.events.map((e: { status: number }) => e.status).sort()).toEqual([1, 2]);
    const n = await h.cli(['events', 'list', id, '--output', 'ndjson']);
    expect(n.stdout.trimEnd().split('\n').map((l) => JSON.parse(l).event_id).sort()).toEqual([e1.event_id, e2.event_id].sort());
  });
});

describe('attempts', () => {
  it('--outcome failed with --delivered-* → exit 2 naming the rule', async () => {
    const id = await createParcel(h);
    const r = await h.cli([
      'attempts', 'add', id, '--outcome', 'failed',
      '--delivered-country', 'NL', '--delivered-postal-code', '1234AB', '--delivered-number', '1',
    ]);
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: --delivered-* is allowed only when outcome is 0 (delivered) or 2 (delivered elsewhere)\n',
    });
    expect(json(await h.cli(['attempts', 'list', id, '--json'])).attempts).toEqual([]);
  });

  it('an incomplete delivered group → exit 2', async () => {
    const id = await createParcel(h);
    const r = await h.cli(['attempts', 'add', id, '--outcome', 'delivered_elsewhere', '--delivered-country', 'NL']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^Error: --delivered-/);
  });

  it('delivered_elsewhere with a full delivered group → exit 0, attempt_no assigned, status 4', async () => {
    const id = await createParcel(h);
    const r = await h.cli([
      'attempts', 'add', id, '--outcome', 'delivered_elsewhere',
      '--delivered-country', 'NL', '--delivered-postal-code', '1234AB', '--delivered-number', '12',
    ]);
    expect(r.code).toBe(0);
    const time = /^time_attempt\t(.+)$/m.exec(r.stdout)?.[1] as string;
    const recorded = /^recorded_at\t(.+)$/m.exec(r.stdout)?.[1] as string;
    expect(r.stdout).toBe(
      `attempt_no\t1\nentry_id\t${id}\noutcome\t2 delivered_elsewhere\nreason\t0 no_reason\ntime_attempt\t${time}\n` +
        'delivered.delivered_country\tNL\ndelivered.delivered_postal_code\t1234AB\ndelivered.delivered_number\t12\n' +
        `recorded_at\t${recorded}\n`,
    );
    expect(r.stderr).toBe(`✓ Recorded delivery attempt for parcel ${id}\n`);

    // get after the attempt: status 4 with its name from the reference route
    const g = await h.cli(['get', id]);
    expect(g.code).toBe(0);
    expect(g.stdout).toMatch(/^status\t4 delivered$/m);
    expect(json(await h.cli(['get', id, '--json'])).status).toBe(4);
  });

  it('a failed attempt with a reason name, then attempt_no counts up', async () => {
    const id = await createParcel(h);
    const a = json(await h.cli(['attempts', 'add', id, '--outcome', 'failed', '--reason', 'not_at_home', '--at', String(NOW - 30), '--json']));
    expect(a).toMatchObject({ attempt_no: 1, outcome: 1, reason: 1, time_attempt: NOW - 30 });
    const b = json(await h.cli(['attempts', 'add', id, '--outcome', '4', '--reason', '8', '--at', '2026-01-02T03:04:05Z', '--json']));
    expect(b).toMatchObject({ attempt_no: 2, outcome: 4, reason: 8, time_attempt: 1767323045 });
    const list = json(await h.cli(['attempts', 'list', id, '--json']));
    expect(list.attempts.map((x: { attempt_no: number }) => x.attempt_no).sort()).toEqual([1, 2]);
    const t = await h.cli(['attempts', 'list', id]);
    expect(t.stdout.split('\n')[0]).toBe('entry_id\tattempt_no\toutcome\treason\ttime_attempt\tdelivered\trecorded_at');
    expect(t.stdout).toContain('\t1 failed\t1 not_at_home\t');
  });

  it('--data with attempt_no 1 → exit 2', async () => {
    const id = await createParcel(h);
    const r = await h.cli(['attempts', 'add', id, '--data', `{"attempt_no":1,"time_attempt":${NOW}}`]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('Error: attempt_no must be omitted (the service assigns it); only 0 is valid\n');
  });

  it('--outcome bogus → exit 2 listing the names', async () => {
    const id = await createParcel(h);
    const r = await h.cli(['attempts', 'add', id, '--outcome', 'bogus']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^Error: --outcome must be a code number or one of: 0 delivered, 1 failed, 2 delivered_elsewhere/);
  });
});
