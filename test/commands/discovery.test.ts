/**
 * Issue 20, "ids and hints that keep working" and "help and discovery": prefixes of every id the CLI
 * printed, created or wrote to; a prefix hint that helps; grouped, wrapped help; scenario names;
 * completion of scenarios and clock actions; did-you-mean; parser errors in the CLI's own style.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/definitions/table.js';
import { GLOBAL_FLAGS } from '../../src/definitions/globals.js';
import { topLevelHelp } from '../../src/help.js';
import { tempConfigDir } from '../helpers/cli.js';
import { FULL_KEY } from '../helpers/seed.js';
import { hintedCommands } from '../helpers/terminal.js';
import { parcelLine, writeLines } from '../helpers/bulk.js';
import type { Harness, RunOpts } from './harness.js';
import { PARCEL_FLAGS, createParcel, expectNoSecrets, json, startHarness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  expectNoSecrets(h.seen);
  await h.close();
});

describe('ids stay known for prefixes', () => {
  it('after create -q, a prefix works for the first write and the second (the write no longer forgets it)', async () => {
    const dir = tempConfigDir();
    const id = await createParcel(h, [], { dir });
    for (const status of ['picked_up', 'in_transit']) {
      const r = await h.cli(['events', 'add', id.slice(0, 8), '--status', status, '--quiet'], { dir });
      expect(r.code, r.stderr).toBe(0);
    }
    expect(json(await h.cli(['get', id.slice(0, 8), '--json'], { dir }))).toMatchObject({ entry_id: id, status: 2 });
  });

  it('ids printed by a bulk run and by track stay known for prefixes', async () => {
    const dir = tempConfigDir();
    const from = writeLines(dir, 'parcels.ndjson', [parcelLine(71), parcelLine(72)]);
    const bulk = await h.cli(['create', '--from', from], { dir });
    expect(bulk.code, bulk.stderr).toBe(0);
    const created = bulk.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { entry_id: string }).entry_id);
    expect(created).toHaveLength(2);
    for (const id of created) expect(json(await h.cli(['get', id.slice(0, 8), '--json'], { dir })).entry_id).toBe(id);

    const other = await createParcel(h);
    const fresh = tempConfigDir();
    expect((await h.cli(['track', other], { dir: fresh })).code).toBe(0);
    expect(json(await h.cli(['get', other.slice(0, 8), '--json'], { dir: fresh })).entry_id).toBe(other);
  });

  it('an unknown prefix: the hint lists every id once, after which the prefix works', async () => {
    const id = await createParcel(h);
    const dir = tempConfigDir();
    const r = await h.cli(['get', id.slice(0, 10)], { dir });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr:
        `Error: ID: no known parcel id starts with "${id.slice(0, 10)}"\n` +
        'Hint: give the whole id, or run `parcels list --all --quiet` once: every id it prints can then be abbreviated to 8 or more characters\n',
    });
    const listed = await h.cli(hintedCommands(r.stderr)[0] as string[], { dir });
    expect(listed.stdout).toContain(`${id}\n`);
    expect(json(await h.cli(['get', id.slice(0, 10), '--json'], { dir })).entry_id).toBe(id);
  });

  it('fewer than 8 characters: the rule, not "must be a UUID"', async () => {
    expect(await h.cli(['events', 'list', '3f1c9a'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: ID must be a whole id, or a unique prefix of 8 or more characters (got "3f1c9a", 6)\n',
    });
  });

  it('sandbox simulate takes a prefix; a wrong scenario is exit 2 with the closest name', async () => {
    const dir = tempConfigDir();
    const env = { PARCELS_BASE_URL: undefined, PARCELS_API_KEY: undefined };
    const created = await h.cli(['--sandbox', 'create', '--courier', 'DEMO-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '1', '-q'], { dir, env });
    const id = created.stdout.trim();
    const run = await h.cli(['--sandbox', 'sandbox', 'simulate', id.slice(0, 8), 'happy', '--json'], { dir, env });
    expect(json(run)).toMatchObject({ entry_id: id, scenario: 'happy' });
    const wrong = await h.cli(['--sandbox', 'sandbox', 'simulate', id.slice(0, 8), 'hapy'], { dir, env });
    expect(wrong).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'Error: SCENARIO: unknown scenario "hapy"; known: happy, failed-then-delivered, three-failures-returned, delivered-elsewhere, refused, late, out-of-order; did you mean happy?\n',
    });
  });
});

describe('help', () => {
  it('sandbox simulate --help lists the scenarios; sandbox clock --help the actions', async () => {
    const simulate = await h.cli(['sandbox', 'simulate', '--help']);
    expect(simulate.stdout).toContain("\nScenarios (built in; without one: show the parcel's run):\n  happy                    registered → picked up → in transit → in delivery →\n");
    expect(simulate.stdout).toContain('\n  out-of-order  ');
    expect(simulate.stdout).toContain('  parcels sandbox simulate <id> happy\n');
    const clock = await h.cli(['sandbox', 'clock', '--help']);
    expect(clock.stdout).toContain('\nActions (without one: show the clock):\n  advance  move the clock forward by a duration, e.g. 36h\n');
  });

  it('the top level: commands in sections, groups with real descriptions, every line within 60 columns but the examples', () => {
    const text = topLevelHelp(COMMANDS, Object.values(GLOBAL_FLAGS), '0.0.0', 60);
    const titles = text.split('\n').filter((line) => /^[A-Z].*:$/.test(line));
    // As gh and kubectl: commands first, the flags every command takes last.
    expect(titles).toEqual([
      'Parcels, their events and attempts:',
      'Following a parcel:',
      'Bulk work and the outbox:',
      'Account, reference and raw requests:',
      'The local sandbox:',
      'Set-up: keys, profiles, settings, checks:',
      'Help:',
      'Global options:',
      'Examples:',
    ]);
    expect(text).not.toContain(' commands\n');
    expect(text).toContain('  sandbox <command>');
    const examples = text.slice(text.indexOf('Examples:'), text.indexOf('More help'));
    for (const line of text.replace(examples, '').split('\n')) expect(line.length, line).toBeLessThanOrEqual(60);
    // Words are never cut: every description word of a command is whole on some line.
    const words = new Set(text.split(/\s+/));
    for (const def of COMMANDS) for (const word of def.summary.split(' ')) expect(words.has(word), `"${word}" of ${def.path.join(' ')}`).toBe(true);
  });

  it('no help example holds an id that fails when pasted', () => {
    for (const def of COMMANDS) for (const example of def.examples) expect(example, example).not.toMatch(/…|[0-9a-f]{4}…/);
  });
});

describe('completion values', () => {
  const complete = async (words: string[]): Promise<string> => (await h.cli(['__complete', ...words])).stdout;

  it('after `sandbox simulate ID ` the scenarios; after `sandbox clock ` the actions', async () => {
    const scenarios = await complete(['sandbox', 'simulate', '3f1c9a2b', '']);
    expect(scenarios.split('\n')[0]).toBe('happy\tregistered → picked up → in transit → in delivery → delivered');
    expect(scenarios.split('\n').filter((l) => l !== '')).toHaveLength(7);
    expect(await complete(['sandbox', 'clock', 'f'])).toBe('freeze\tstop the clock\n');
  });
});

describe('did you mean', () => {
  it('--country nl --postal-code "1234 ab": the one normalisation rule sends NL and 1234AB', async () => {
    const r = await h.cli(['create', '--courier', 'A-BIKE', '--country', 'nl', '--postal-code', '1234 ab', '--number', '1', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ country: 'NL', postal_code: '1234AB' });
  });

  it('--courier demo-bik on create: the closest courier, as a command that works', async () => {
    const r = await h.cli(['create', '--courier', 'a-bik', '--country', 'NL', '--postal-code', '1234AB', '--number', '1']);
    expect(r.code).toBe(6);
    expect(r.stderr.split('\n')[1]).toBe('Hint: did you mean A-BIKE: `parcels create --country NL --postal-code 1234AB --number 1 --courier A-BIKE`');
    expect((await h.cli(hintedCommands(r.stderr)[0] as string[])).code).toBe(0);
  });

  it('--reason nothome, --require-scope deliveries:wirte, --fields weight', async () => {
    const id = await createParcel(h);
    const reason = await h.cli(['attempts', 'add', id, '--outcome', 'failed', '--reason', 'nothome']);
    expect(reason.code).toBe(2);
    expect(reason.stderr).toMatch(/\(got "nothome"\); did you mean not_at_home\?\n$/);
    const scope = await h.cli(['doctor', '--require-scope', 'deliveries:wirte']);
    expect(scope).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'Error: --require-scope must be one of deliveries:read, deliveries:write, usage:read, oracle:read (got "deliveries:wirte"); did you mean deliveries:write?\n',
    });
    const fields = await h.cli(['get', id, '--fields', 'weight']);
    expect(fields.code).toBe(2);
    expect(fields.stderr).toMatch(/^Error: --fields: unknown field "weight"; the response has: .*; did you mean parcel_weight\?\n$/);
  });

  it('parser errors: Error: and a hint on a terminal; with --json the suggestion is a field', async () => {
    expect(await h.cli(['list', '--statsu', '1'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "Error: unknown option '--statsu'\nHint: did you mean `parcels list --status 1`?\nUsage: parcels list [options]\n",
    });
    expect(await h.cli(['lst', '--json'])).toEqual({
      code: 2,
      stdout: '',
      stderr: '{"error":{"status":null,"code":"invalid_usage","message":"unknown command \'lst\'","exit_code":2,"suggestion":"list"}}\n',
    });
  });
});

describe('hints that named the wrong thing', () => {
  it('a refused key at `auth login -p bad --base-url URL`: the hint repeats both flags', async () => {
    const opts: RunOpts = { dir: tempConfigDir(), env: { PARCELS_BASE_URL: undefined, PARCELS_API_KEY: undefined }, stdin: 'not-a-real-key-0000' };
    const r = await h.cli(['auth', 'login', '-p', 'bad', '--base-url', h.sandbox.url, '--with-key-stdin'], opts);
    expect(r).toEqual({
      code: 3,
      stdout: '',
      stderr: `Error: the API key was refused (invalid or expired); nothing was saved\nHint: the API key was refused (invalid or expired): run \`parcels auth login -p bad --base-url ${h.sandbox.url}\` with a valid key\n`,
    });
  });

  it('a cursor from another walk: no courier list; the hint starts the walk again and works', async () => {
    const dir = tempConfigDir();
    for (let i = 0; i < 2; i++) await createParcel(h, [], { dir });
    const first = await h.cli(['list', '--status', '0', '--limit', '1'], { dir, tty: true });
    const cursor = /--cursor (\S+)/.exec(first.stderr)?.[1] as string;
    const r = await h.cli(['list', '--courier', 'A-BIKE', '--cursor', cursor], { dir });
    expect(r.code).toBe(6);
    expect(r.stderr).not.toContain("organisation's couriers");
    expect(r.stderr).toBe(
      'Error: --cursor: this cursor belongs to a walk filtered by status=0, not to one filtered by courier=A-BIKE; repeat that walk\'s filters, or start a new walk without a cursor\n' +
        'Hint: give the cursor with the filters of the command that printed it, or start again from the first page: `parcels list --courier A-BIKE`\n',
    );
    expect((await h.cli(hintedCommands(r.stderr)[0] as string[], { dir })).code).toBe(0);
  });

  it('auth token and patch name no flag the user never typed', async () => {
    const opts: RunOpts = { dir: tempConfigDir(), env: { PARCELS_API_KEY: undefined } };
    await h.cli(['auth', 'login', '--base-url', h.sandbox.url, '--with-key-stdin'], { ...opts, stdin: FULL_KEY });
    const token = await h.cli(['auth', 'token'], { ...opts, tty: true });
    expect(token.stderr).toBe(
      'Error: refusing to print the API key to a terminal\nHint: capture it instead, e.g. export PARCELS_API_KEY=$(parcels auth token), or print it here: `parcels auth token --show`\n',
    );
    const id = await createParcel(h, [], opts);
    await h.cli(['events', 'add', id, '--status', '1'], opts);
    const patch = await h.cli(['patch', id, ...PARCEL_FLAGS.slice(0, 0), '--weight', '5'], opts);
    expect(patch.stderr.split('\n')[0]).toBe(`Error: no cached ETag for parcel ${id} (a change is sent with If-Match)`);
    expect(patch.stderr).not.toContain('--if-match');
  });
});
