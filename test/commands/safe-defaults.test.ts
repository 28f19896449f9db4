/**
 * Issue 20, "safe by default": `events add` without --status and `attempts add` without --outcome
 * change nothing (exit 2, the names listed, nothing sent); a --data body and every bulk line must
 * carry them too. `parcels api` stays raw: the API's defaults apply there.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import type { Harness } from './harness.js';
import { createParcel, expectNoSecrets, json, startHarness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  expectNoSecrets(h.seen);
  await h.close();
});

const STATUS_REQUIRED =
  "Error: --status is required: 0 registered, 1 picked_up, 2 in_transit, 3 in_delivery (nothing was sent; the API's default, 0 registered, would set the parcel back)\n";
const OUTCOME_REQUIRED =
  "Error: --outcome is required: 0 delivered, 1 failed, 2 delivered_elsewhere, 3 refused, 4 rescheduled (nothing was sent; the API's default, 0 delivered, would close the parcel for good)\n";

const NOW = Math.floor(Date.now() / 1000);

async function history(id: string): Promise<{ events: unknown[]; attempts: unknown[]; status: number }> {
  const events = json(await h.cli(['events', 'list', id, '--json'])).events as unknown[];
  const attempts = json(await h.cli(['attempts', 'list', id, '--json'])).attempts as unknown[];
  const status = json(await h.cli(['get', id, '--json'])).status as number;
  return { events, attempts, status };
}

describe('a forgotten --status or --outcome changes nothing', () => {
  it('events add ID without --status: exit 2 listing the names; the in-transit parcel stays in transit', async () => {
    const id = await createParcel(h);
    expect((await h.cli(['events', 'add', id, '--status', 'in_transit'])).code).toBe(0);
    expect(await h.cli(['events', 'add', id])).toEqual({ code: 2, stdout: '', stderr: STATUS_REQUIRED });
    const after = await history(id);
    expect(after.status).toBe(2);
    expect(after.events).toHaveLength(1);
  });

  it('attempts add ID without --outcome: exit 2 listing the names; the parcel is not delivered', async () => {
    const id = await createParcel(h);
    expect(await h.cli(['attempts', 'add', id, '--reason', 'not_at_home'])).toEqual({ code: 2, stdout: '', stderr: OUTCOME_REQUIRED });
    expect(await history(id)).toEqual({ events: [], attempts: [], status: 0 });
  });

  it('a --data body without the field: exit 2 naming both ways to give it', async () => {
    const id = await createParcel(h);
    const e = await h.cli(['events', 'add', id, '--data', `{"occurred_at":${NOW}}`]);
    expect(e).toEqual({ code: 2, stdout: '', stderr: STATUS_REQUIRED.replace('--status is required', '--status is required, or "status" in --data') });
    const a = await h.cli(['attempts', 'add', id, '--data', `{"reason":1,"time_attempt":${NOW}}`, '--json']);
    expect(a).toEqual({
      code: 2,
      stdout: '',
      stderr: `${JSON.stringify({
        error: {
          status: null,
          code: 'invalid_usage',
          message: OUTCOME_REQUIRED.slice('Error: '.length, -1).replace('--outcome is required', '--outcome is required, or "outcome" in --data'),
          exit_code: 2,
          field: '--outcome',
        },
      })}\n`,
    });
    expect(await history(id)).toEqual({ events: [], attempts: [], status: 0 });
    // With the field in --data, the request goes.
    expect(json(await h.cli(['events', 'add', id, '--data', `{"status":1,"occurred_at":${NOW}}`, '--json']))).toMatchObject({ entry_id: id, status: 1 });
  });

  it('--queue and --offline do not capture a request without the field', async () => {
    const dir = tempConfigDir();
    const id = await createParcel(h, [], { dir });
    expect(await h.cli(['events', 'add', id, '--offline'], { dir })).toEqual({ code: 2, stdout: '', stderr: STATUS_REQUIRED });
    expect(await h.cli(['outbox'], { dir })).toEqual({ code: 0, stdout: '', stderr: 'The outbox is empty.\n' });
  });
});

describe('bulk lines', () => {
  it('a line without the field and no flag giving it is an invalid line, not sent; the flag fills every line', async () => {
    const dir = tempConfigDir();
    const id = await createParcel(h, [], { dir });
    const file = join(dir, 'events.ndjson');
    writeFileSync(file, `${JSON.stringify({ entry_id: id })}\n${JSON.stringify({ entry_id: id, status: 1 })}\n`);
    const r = await h.cli(['events', 'add', '--from', file], { dir });
    expect(r.code).toBe(2);
    expect(r.stdout.split('\n')[0]).toBe(
      JSON.stringify({
        line: 1,
        ok: false,
        outcome: 'failed',
        error: {
          code: 'invalid_line',
          message: "status is required: give a status on the line or --status (the API's default, 0 registered, would set the parcel back)",
          field: 'status',
        },
      }),
    );
    expect(JSON.parse(r.stdout.split('\n')[1] as string)).toMatchObject({ line: 2, ok: true, outcome: 'created', entry_id: id });
    expect((await history(id)).events).toHaveLength(1);

    const attempts = join(dir, 'attempts.csv');
    writeFileSync(attempts, `entry_id,reason\n${id},1\n`);
    const refused = await h.cli(['attempts', 'add', '--from', attempts], { dir });
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.stdout.trim())).toMatchObject({ line: 2, ok: false, outcome: 'failed', error: { code: 'invalid_line', field: 'outcome' } });
    const filled = await h.cli(['attempts', 'add', '--from', attempts, '--outcome', 'failed', '--batch-id', 'with-outcome'], { dir });
    expect(filled.code, filled.stderr).toBe(0);
    expect(await history(id)).toMatchObject({ status: 5, attempts: [{ outcome: 1, reason: 1 }] });
  });
});

describe('parcels api stays raw', () => {
  it("a POST without status gets the API's default", async () => {
    const id = await createParcel(h);
    const r = await h.cli(['api', 'POST', `/deliveries/v1/parcels/${id}/events`, '--data', `{"occurred_at":${NOW}}`]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ data: { entry_id: id, status: 0 } });
  });
});

describe('delivered_elsewhere without its address (it closes the parcel for good)', () => {
  const WARNING =
    '! delivered_elsewhere without a delivered address: the parcel closes for good with no address recorded (give --delivered-country, --delivered-postal-code and --delivered-number, or --without-address when that is meant)\n';

  it('off a terminal: sent as the spec allows, with a warning on stderr', async () => {
    const id = await createParcel(h);
    const r = await h.cli(['attempts', 'add', id, '--outcome', 'delivered_elsewhere', '--quiet']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(WARNING);
    const { attempts, status } = await history(id);
    expect(status).toBe(4);
    expect(attempts).toHaveLength(1);
    expect((attempts[0] as Record<string, unknown>).delivered ?? null).toBeNull();
  });

  it('--without-address says it is meant: no warning', async () => {
    const id = await createParcel(h);
    const r = await h.cli(['attempts', 'add', id, '--outcome', '2', '--without-address', '--quiet']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
  });

  it('with the address given: no warning, the address recorded as typed by people ("1234 ab")', async () => {
    const id = await createParcel(h);
    const r = await h.cli(['attempts', 'add', id, '--outcome', '2', '--delivered-country', 'nl', '--delivered-postal-code', '1234 ab', '--delivered-number', '5', '--quiet']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const { attempts } = await history(id);
    expect((attempts[0] as Record<string, unknown>).delivered).toMatchObject({ delivered_country: 'NL', delivered_postal_code: '1234AB', delivered_number: '5' });
  });

  it('--without-address with --from: refused, nothing read or sent', async () => {
    const r = await h.cli(['attempts', 'add', '--from', 'attempts.ndjson', '--without-address']);
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'Error: --without-address applies to one attempt, not to --from (each line sends what it holds)\n' });
  });
});
