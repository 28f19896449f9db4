import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import type { Harness } from './harness.js';
import { createParcel, expectNoSecrets, json, startHarness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await createParcel(h);
  await createParcel(h);
});
afterAll(async () => {
  expectNoSecrets(h.seen);
  await h.close();
});

describe('account', () => {
  it('couriers: a table and JSON', async () => {
    expect(await h.cli(['couriers'])).toEqual({ code: 0, stdout: 'code\tname\nA-BIKE\tA bikes\nA-VAN\tA vans\n', stderr: '' });
    expect(json(await h.cli(['couriers', '--json']))).toEqual({
      couriers: [
        { code: 'A-BIKE', name: 'A bikes' },
        { code: 'A-VAN', name: 'A vans' },
      ],
    });
  });

  it('overview counts parcels per courier', async () => {
    const overview = await h.cli(['overview']);
    expect(overview.code).toBe(0);
    expect(overview.stderr).toBe('');
    // Parcels by status first (what an operator looks for), then the other lists, then the plain values.
    expect(overview.stdout).toMatch(/^parcels\.by_status\nstatus\tname\tcount\n0 registered\tregistered\t2\n[^]*\n\ncouriers\ncode\tname\tparcels\nA-BIKE\tA bikes\t2\nA-VAN\tA vans\t0\n\nsummary\n/);
    expect(overview.stdout).toContain('parcels.total\t2\n');
    expect((await h.cli(['overview', '--json'])).code).toBe(0);
  });

  it('usage daily: 30 days of totals', async () => {
    const r = await h.cli(['usage', 'daily']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('date\trequests\terrors');
    expect(lines).toHaveLength(31);
    for (const line of lines.slice(1)) expect(line).toMatch(/^\d{4}-\d\d-\d\d\t\d+\t\d+$/);
  });

  it('usage requests lists the latest requests (paths, never the key)', async () => {
    const data = json(await h.cli(['usage', 'requests', '--json']));
    expect(data.requests.length).toBeGreaterThan(0);
    expect(data.requests.length).toBeLessThanOrEqual(100);
    expect(data.requests.some((x: { method: string; path: string }) => x.method === 'POST' && x.path === '/deliveries/v1/parcels')).toBe(true);
    const csv = await h.cli(['usage', 'requests', '--output', 'csv']);
    expect(csv.code).toBe(0);
    expect(csv.stdout.split(/\r?\n/)[0]?.split(',').sort()).toEqual(['at', 'method', 'path', 'status']);
  });

  it('reference: codes and names', async () => {
    const r = await h.cli(['reference']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('0\tregistered\n1\tpicked_up\n2\tin_transit\n3\tin_delivery\n4\tdelivered\n5\tnot_delivered\n');
    expect((await h.cli(['reference', '--json'])).code).toBe(0);
  });

  it('oracle activity / planned / coverage', async () => {
    const activity = await h.cli(['oracle', 'activity']);
    expect(activity.code).toBe(0);
    expect(activity.stdout.split('\n')[0]).toBe('date\tevents\tattempts');
    const planned = await h.cli(['oracle', 'planned']);
    expect(planned.code).toBe(0);
    expect(planned.stdout.split('\n')[0]).toBe('date\tparcels');
    // Several lists in one answer: each under its own heading, then the plain fields.
    expect(await h.cli(['oracle', 'coverage'])).toEqual({
      code: 0,
      stdout:
        'countries\nvalue\nNL\n\npostcode_areas\narea\tparcels\n12\t2\n\n' +
        'couriers\ncode\tname\tparcels\nA-BIKE\tA bikes\t2\nA-VAN\tA vans\t0\n\nsummary\nmetric\tcoverage\n',
      stderr: '',
    });
    expect((await h.cli(['oracle', 'activity', '--param', 'days=7', '--json'])).code).toBe(0);
  });

  it('oracle with an unknown metric → exit 4, and the hint is not about parcel ids', async () => {
    const r = await h.cli(['oracle', 'nope']);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Error: unknown oracle metric "nope"; use one of activity, planned, coverage\n/);
    // The generic 404 hint talks about a parcel's entry_id, which is wrong for an oracle metric.
    expect(r.stderr).not.toContain('entry_id');
  });

  it('oracle with a bad metric name or --param → exit 2', async () => {
    expect((await h.cli(['oracle', 'a/b'])).code).toBe(2);
    expect(await h.cli(['oracle', 'activity', '--param', 'days'])).toEqual({ code: 2, stdout: '', stderr: 'Error: --param takes key=value (got "days")\n' });
  });

  it('oracle unavailable → exit 8', async () => {
    const down = await startHarness({ oracleUnavailable: true });
    try {
      const r = h.record(await runCli(['oracle', 'activity', '--retries', '0'], { env: down.env() }));
      expect(r.code).toBe(8);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        'Error: the oracle is unavailable; try again later\nHint: the service failed or is unavailable: try again later (raise --retries to retry longer)\n',
      );
    } finally {
      await down.close();
    }
  });

  it('validate-address', async () => {
    const r = await h.cli(['validate-address', '--postal-code', '1234AB', '--number', '10']);
    expect(r).toEqual({
      code: 0,
      stdout: 'valid\tyes\nnormalized.country\tNL\nnormalized.postal_code\t1234AB\nnormalized.number\t10\nnormalized.addition\t\nissues\t[]\n',
      stderr: '',
    });
    const bad = json(await h.cli(['validate-address', '--postal-code', '12', '--number', '10', '--json']));
    expect(bad.valid).toBe(false);
    expect(await h.cli(['validate-address', '--number', '10'])).toEqual({ code: 2, stdout: '', stderr: 'Error: --postal-code is required\n' });
  });
});
