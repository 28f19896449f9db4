/**
 * Issue 33's script-facing text on the built CLI, piped: CSV times as ISO 8601 UTC (and the README's
 * way to keep the seconds), `-v` still --verbose before a command, a list page that stops saying so
 * on stderr, dry runs with readable times and JSON bodies, and parcel-id completion with what was
 * last shown of each parcel.
 */
import { describe, expect, it } from 'vitest';
import { FULL_KEY } from '../helpers/seed.js';
import { parcels } from '../helpers/spawn.js';
import { newParcel, servedForFile } from '../helpers/served.js';

const { env } = servedForFile();

describe('script-facing text (issue 33)', () => {
  it('-o csv writes times as ISO 8601 UTC', async () => {
    const id = await newParcel(env, ['--slot-start', '1900000000']);
    expect(await parcels(['get', id, '-o', 'csv', '--fields', 'entry_id,time_slot_period_start'], { env })).toEqual({
      code: 0,
      stdout: `entry_id,time_slot_period_start\n${id},2030-03-17T17:46:40Z\n`,
      stderr: '',
    });
  });

  it("the README's way to keep Unix seconds: --jq … @csv prints the time field's number", async () => {
    const id = await newParcel(env, ['--slot-start', '1900000000']);
    expect(await parcels(['get', id, '--jq', '[.entry_id, .time_slot_period_start] | @csv'], { env })).toEqual({
      code: 0,
      stdout: `"${id}",1900000000\n`,
      stderr: '',
    });
  });

  it('-v before a command still means --verbose: the request traced on stderr, the key redacted', async () => {
    const id = await newParcel(env);
    const r = await parcels(['-v', 'get', id, '--quiet'], { env });
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 0, stdout: `${id}\n` });
    expect(r.stderr.split('\n').slice(0, 3)).toEqual([`> GET ${env.PARCELS_BASE_URL}/deliveries/v1/parcels/${id}`, '> Accept: application/json', '> Authorization: Bearer ***REDACTED***']);
    expect(r.stderr).toMatch(/^< 200 OK \(\d+ ms\)$/m);
    expect(r.stderr).not.toContain(FULL_KEY);
  });

  it('a piped list page that stops says so on stderr; stdout keeps the rows alone', async () => {
    await newParcel(env);
    await newParcel(env);
    const r = await parcels(['list', '--limit', '1'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(2);
    expect(r.stderr).toMatch(/^More results: parcels list --limit 1 --cursor \S+ {2}\(or --all\)\n$/);
  });

  it('a dry run shows each time readable beside its number, and --json gives the body as JSON', async () => {
    const id = await newParcel(env);
    const at = '2026-11-27T09:00:00Z';
    const human = await parcels(['events', 'add', id, '--status', 'picked_up', '--at', at, '--dry-run'], { env });
    expect(human.stdout).toContain(`{"status":1,"occurred_at":1795770000}\n# occurred_at 1795770000 = ${at}\n`);
    const json = await parcels(['events', 'add', id, '--status', 'picked_up', '--at', at, '--dry-run', '--json'], { env });
    expect((JSON.parse(json.stdout) as { body: unknown }[])[0]?.body).toEqual({ status: 1, occurred_at: 1795770000 });
  });

  it('completion offers parcel ids with their status and postcode as last shown', async () => {
    const id = await newParcel(env);
    expect((await parcels(['list', '--limit', '100', '--json'], { env })).code).toBe(0);
    const r = await parcels(['__complete', 'get', id.slice(0, 8)], { env });
    expect(r.stdout).toBe(`${id}\tregistered 1234AB\n`);
  });
});
