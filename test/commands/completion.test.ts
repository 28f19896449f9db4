/**
 * `parcels __complete WORD…` in-process: commands, subcommands, flags, built-in code names, and the
 * values caches hold (profiles, couriers per target, reference names, parcel ids), filtered for the
 * terminal. Also `parcels completion SHELL` and the check that completions/ is not stale.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCRIPT_FILES, SHELLS, completionScript } from '../../src/completions/scripts.js';
import { targetId } from '../../src/config/target.js';
import { openKnownIds } from '../../src/config/known-ids.js';
import { SETTABLE_KEYS } from '../../src/config/store.js';
import { HELP_TOPICS } from '../../src/completions/complete.js';
import { CONFIG_KEYS } from '../../src/completions/value-candidates.js';
import { tempConfigDir } from '../helpers/cli.js';
import { FULL_KEY } from '../helpers/seed.js';
import type { Harness } from './harness.js';
import { closedPortUrl, createParcel, expectNoSecrets, startHarness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  expectNoSecrets(h.seen);
  await h.close();
});

/** Completes the last word in a config dir of the test's own; exit 0 and nothing on stderr, always. */
async function complete(dir: string, words: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const r = await h.cli(['__complete', ...words], { dir, env });
  expect(r.code).toBe(0);
  expect(r.stderr).toBe('');
  return r.stdout;
}

describe('parcels __complete', () => {
  it('commands, groups and subcommands with their summaries', async () => {
    const dir = tempConfigDir();
    expect(await complete(dir, ['au'])).toBe('auth\tAPI keys and profiles: log in, check the key, print it, switch, log out\n');
    expect(await complete(dir, ['auth', 's'])).toBe('status\tCheck the key with the service; show the profile, base URL and masked key\nswitch\tMake a saved profile the default one\n');
    // a command that is also a group: its subcommands, then its own arguments (none here)
    expect(await complete(dir, ['usage', ''])).toBe('daily\tDaily API usage totals over 30 days\nrequests\tThe latest 100 API requests within 30 days\n');
    expect(await complete(dir, ['events', ''])).toBe("list\tList a parcel's status events (at most 1000)\nadd\tReport a status event (status 0-3)\n");
    expect(await complete(dir, ['--json', 'co'])).toBe(
      "couriers\tList your organisation's registered couriers\nconfig\tA profile's settings: list, get, set, unset, and the default profile\ncompletion\tPrint the completion script for bash, zsh or fish\n",
    );
    expect(await complete(dir, [])).toContain('create\tRegister a parcel with one of your couriers\n');
    expect(await complete(dir, ['help', 'e'])).toBe("exit-codes\nenvironment\nevents\tA parcel's status events: add one (or many with --from), list them\n");
    const topics = /^Topics: (.*)$/m.exec((await h.cli(['help', 'no-such-topic'])).stderr)?.[1];
    expect(topics?.split(', ')).toEqual(HELP_TOPICS);
    expect((await complete(dir, ['']))).not.toContain('__complete');
  });

  it('a file name after --from, --db and --data @: the scripts are told to complete files themselves', async () => {
    const dir = tempConfigDir();
    expect(await complete(dir, ['create', '--from', ''])).toBe(':files\n');
    expect(await complete(dir, ['track', '--from', 'exp'])).toBe(':files\n');
    expect(await complete(dir, ['sandbox', 'serve', '--db', ''])).toBe(':files\n');
    expect(await complete(dir, ['api', 'POST', '/deliveries/v1/parcels', '--data', '@bo'])).toBe(':files@\n');
    // JSON typed after --data is no file name: nothing to offer.
    expect(await complete(dir, ['api', 'POST', '/deliveries/v1/parcels', '--data', '{'])).toBe('');
  });

  it('--fields: the fields of what the command prints, each after those already typed (gh does the same)', async () => {
    const dir = tempConfigDir();
    expect(await complete(dir, ['get', 'x', '--fields', 'entry_id,st'])).toBe('entry_id,status\n');
    expect((await complete(dir, ['list', '--fields', ''])).split('\n').slice(0, 4)).toEqual(['entry_id', 'status', 'courier', 'country']);
    expect(await complete(dir, ['events', 'list', 'x', '--fields', 'status,'])).toBe('status,occurred_at\n');
    expect(await complete(dir, ['attempts', 'list', 'x', '--fields', 'out'])).toBe('outcome\n');
  });

  it('parcel ids come with what was last shown of them (status name and postcode), for zsh and fish to show', async () => {
    const dir = tempConfigDir();
    const id = await createParcel(h, [], { dir });
    expect((await h.cli(['list', '--json'], { dir })).code).toBe(0);
    const lines = (await complete(dir, ['get', id.slice(0, 8)])).split('\n');
    expect(lines).toContain(`${id}\tregistered 1234AB`);
  });

  it("flags: the command's own and the global ones; one already given is not offered again", async () => {
    const dir = tempConfigDir();
    expect(await complete(dir, ['events', 'add', 'x', '--s'])).toBe(
      '--sandbox\trun against the embedded local sandbox (no server, no key needed)\n--status\tstatus 0-3 or its name, e.g. in_transit (required, or in --data / each --from line)\n',
    );
    expect(await complete(dir, ['list', '--all', '--a'])).toBe('');
    expect(await complete(dir, ['patch', 'x', '--clear', 'weight', '--cl'])).toBe('--clear\tclear a field: weight, addition, or any field name\n');
  });

  it('status, outcome and reason names are built in from the spec (an empty cache still completes them)', async () => {
    const dir = tempConfigDir();
    const statuses = 'registered\tcode 0\npicked_up\tcode 1\nin_transit\tcode 2\nin_delivery\tcode 3\n';
    expect(await complete(dir, ['list', '--status', ''])).toBe(statuses);
    expect(await complete(dir, ['events', 'add', 'x', '--status', 'in'])).toBe('in_transit\tcode 2\nin_delivery\tcode 3\n');
    expect(await complete(dir, ['list', '--status=in'])).toBe('--status=in_transit\tcode 2\n--status=in_delivery\tcode 3\n');
    expect(await complete(dir, ['attempts', 'add', 'x', '--outcome', 'del'])).toBe('delivered\tcode 0\ndelivered_elsewhere\tcode 2\n');
    expect(await complete(dir, ['attempts', 'add', 'x', '--reason', 'no_'])).toBe('no_reason\tcode 0\nno_access\tcode 3\nno_time\tcode 6\n');
    expect(await complete(dir, ['doctor', '--require-scope', 'deliveries:'])).toBe('deliveries:read\ndeliveries:write\n');
    expect(await complete(dir, ['-o', ''])).toBe('table\nwide\njson\nndjson\ncsv\n');
    // An aimed fault's flags: HTTP statuses, route names, methods and paths of the spec's table.
    expect(await complete(dir, ['sandbox', 'faults', 'add', '--status', '50'])).toBe('500\tinternal_error\n503\tservice_unavailable\n');
    expect(await complete(dir, ['sandbox', 'faults', 'add', '--route', 'attempts.'])).toBe('attempts.list\tGET /deliveries/v1/parcels/{id}/attempts\nattempts.create\tPOST /deliveries/v1/parcels/{id}/attempts\n');
    expect(await complete(dir, ['sandbox', 'faults', 'add', '--method', 'P'])).toBe('POST\nPATCH\n');
    expect(await complete(dir, ['sandbox', 'faults', 're'])).toBe('remove\tremove an aimed fault by its id, e.g. flt_1\n');
    expect(await complete(dir, ['oracle', ''])).toBe('activity\taggregated activity (events and attempts)\nplanned\taggregated planned deliveries (time slots)\ncoverage\tcoverage metadata: countries, postcode areas, couriers\n');
    expect(await complete(dir, ['config', 'set', 'output', 'n'])).toBe('ndjson\n');
    expect(await complete(dir, ['config', 'get', ''])).toBe(`${SETTABLE_KEYS.join('\n')}\n`);
    expect(CONFIG_KEYS).toEqual(SETTABLE_KEYS);
    expect(await complete(dir, ['completion', ''])).toBe('bash\nzsh\nfish\n');
    expect(await complete(dir, ['api', 'P'])).toBe('POST\nPATCH\n');
    expect(await complete(dir, ['api', 'GET', '/account/v1/usage'])).toBe('/account/v1/usage\tGET\n/account/v1/usage/requests\tGET\n');
    // A template is offered up to its parameter, which the user types: `{id}` is not a word every shell takes as it is.
    expect(await complete(dir, ['api', 'GET', '/deliveries/v1/parcels/'])).toBe('/deliveries/v1/parcels/\t{id} GET, PATCH; {id}/events GET, POST; {id}/attempts GET, POST\n');
    expect(await complete(dir, ['api', 'GET', '/deliveries/v1/o'])).toBe('/deliveries/v1/oracle/\t{metric} GET\n');
  });

  it('profile names from config.json', async () => {
    const dir = tempConfigDir();
    expect(await complete(dir, ['--profile', ''])).toBe('');
    for (const profile of ['ci', 'prod']) {
      const r = await h.cli(['auth', 'login', '--profile', profile, '--base-url', h.sandbox.url, '--with-key-stdin', '--no-verify'], { dir, stdin: FULL_KEY });
      expect(r.code, r.stderr).toBe(0);
    }
    expect(await complete(dir, ['--profile', ''])).toBe('ci\nprod\n');
    expect(await complete(dir, ['list', '-p', 'p'])).toBe('prod\n');
  });

  it('courier codes once `parcels couriers` ran, for that target only', async () => {
    const dir = tempConfigDir();
    expect(await complete(dir, ['create', '--courier', ''])).toBe('');
    expect((await h.cli(['couriers', '--json'], { dir })).code).toBe(0);
    expect(await complete(dir, ['create', '--courier', ''])).toBe('A-BIKE\tA bikes\nA-VAN\tA vans\n');
    expect(await complete(dir, ['list', '--courier', 'A-V'])).toBe('A-VAN\tA vans\n');
    // Another service (here by flag, then by environment) has couriers of its own: none cached.
    expect(await complete(dir, ['--base-url', 'https://other.example', 'create', '--courier', ''])).toBe('');
    expect(await complete(dir, ['create', '--courier', ''], { PARCELS_BASE_URL: await closedPortUrl() })).toBe('');
  });

  it('--sandbox: the embedded sandbox is a target of its own (its database), whatever its port', async () => {
    const dir = tempConfigDir();
    const r = await h.cli(['--sandbox', 'couriers', '--json'], { dir, env: { PARCELS_BASE_URL: undefined, PARCELS_API_KEY: undefined } });
    expect(r.code, r.stderr).toBe(0);
    expect(await complete(dir, ['--sandbox', 'create', '--courier', ''])).toBe('DEMO-BIKE\tDemo bikes\nDEMO-VAN\tDemo vans\n');
    expect(await complete(dir, ['create', '--courier', ''])).toBe('');
  });

  it('location-type and service names once a reference answer is cached', async () => {
    const dir = tempConfigDir();
    expect(await complete(dir, ['attempts', 'add', 'x', '--delivered-location-type', ''])).toBe('');
    // A table shows code names, so it caches the reference answer.
    expect((await h.cli(['reference'], { dir })).code).toBe(0);
    expect(await complete(dir, ['attempts', 'add', 'x', '--delivered-location-type', ''])).toBe(
      '0\trecipient\n1\tneighbour\n2\tmailbox\n3\tsafe_place\n4\tpickup_point\n5\tlocker\n6\treception\n',
    );
    expect(await complete(dir, ['create', '--service-type', '1'])).toBe('1\tsame_day\n');
    // and the service's names for statuses 4 and 5, where a status may be 0-5
    expect(await complete(dir, ['list', '--status', ''])).toBe(
      'registered\tcode 0\npicked_up\tcode 1\nin_transit\tcode 2\nin_delivery\tcode 3\ndelivered\tcode 4\nnot_delivered\tcode 5\n',
    );
  });

  it('parcel ids from the ETag cache, most recent first', async () => {
    const dir = tempConfigDir();
    const first = await createParcel(h, [], { dir });
    const second = await createParcel(h, [], { dir });
    expect((await h.cli(['get', first], { dir })).code).toBe(0);
    expect((await h.cli(['get', second], { dir })).code).toBe(0);
    // `get` showed each parcel: its status and postcode come with its id.
    expect(await complete(dir, ['get', ''])).toBe(`${second}\tregistered 1234AB\n${first}\tregistered 1234AB\n`);
    expect(await complete(dir, ['events', 'add', first.slice(0, 8)])).toBe(`${first}\tregistered 1234AB\n`);
    // the id is the only argument: nothing after it
    expect(await complete(dir, ['get', first, ''])).toBe('');
  });

  it('parcel ids `parcels list` printed, after those of the ETag cache', async () => {
    const elsewhere = tempConfigDir();
    const listed = [await createParcel(h, [], { dir: elsewhere }), await createParcel(h, [], { dir: elsewhere })];
    const dir = tempConfigDir();
    const touched = await createParcel(h, [], { dir });
    const page = await h.cli(['list', '--courier', 'A-BIKE', '--limit', '100', '--json'], { dir });
    expect(page.code, page.stderr).toBe(0);
    const ids = (JSON.parse(page.stdout) as { parcels: { entry_id: string }[] }).parcels.map((p) => p.entry_id);
    expect(ids).toEqual(expect.arrayContaining([...listed, touched]));
    const offered = (await complete(dir, ['get', ''])).split('\n').filter((l) => l !== '').map((l) => l.split('\t')[0]);
    // the ETag cache first (the parcel created here), then what the list showed, newest last shown first
    expect(offered[0]).toBe(touched);
    expect(offered.slice(1)).toEqual([...ids].reverse().filter((id) => id !== touched).slice(0, 49));
  });

  it('a prefix of a known id older than the 50 most recent still completes it (as `parcels get PREFIX` resolves it)', async () => {
    const dir = tempConfigDir();
    const ids = Array.from({ length: 60 }, (_, i) => `${(0x10000000 + i).toString(16)}-0000-4000-8000-000000000000`);
    await openKnownIds({ PARCELS_CONFIG_DIR: dir }, targetId({ baseUrl: h.sandbox.url })).remember(ids, ids.map((id) => [id, 2, '1234AB'] as const));
    const oldest = ids[0] as string;
    expect((await complete(dir, ['get', ''])).split('\n').filter((line) => line !== '')).toHaveLength(50);
    expect(await complete(dir, ['get', oldest.slice(0, 8)])).toBe(`${oldest}\tin_transit 1234AB\n`);
    expect(await complete(dir, ['get', '1000000'])).toBe(ids.slice(0, 16).reverse().map((id) => `${id}\tin_transit 1234AB\n`).join(''));
  });

  it('cached values a terminal must not see are dropped: control characters, whitespace', async () => {
    const dir = tempConfigDir();
    const cache = join(dir, 'cache', targetId({ baseUrl: h.sandbox.url }));
    mkdirSync(cache, { recursive: true });
    const couriers = [
      { code: 'OK-1', name: 'fine\u001b[2J' },
      { code: 'BAD\u001b[31m', name: 'x' },
      { code: 'TWO WORDS' },
      { code: 'LINE\u2028BREAK' },
      { code: 'OK-2', name: 'tab\there\nand\u2028there' },
    ];
    writeFileSync(join(cache, 'couriers.json'), JSON.stringify({ written_at: Date.now(), data: couriers }));
    expect(await complete(dir, ['create', '--courier', ''])).toBe('OK-1\tfine[2J\nOK-2\ttab here and there\n');
  });

  it('a torn or corrupt cache gives fewer candidates, never an error', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'config.json'), '{"profiles": {');
    mkdirSync(join(dir, 'etags'), { recursive: true });
    writeFileSync(join(dir, 'etags', `${targetId({ baseUrl: h.sandbox.url })}.log`), '{"id":"a1","etag":"\\"x\\""}\n{"id":"b2","et');
    expect(await complete(dir, ['--profile', ''])).toBe('');
    expect(await complete(dir, ['get', ''])).toBe('a1\n');
  });
});

describe('completion scripts', () => {
  it('`parcels completion SHELL` prints the script; completions/ holds the same (regenerate: npm run gen:completions)', async () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    for (const shell of SHELLS) {
      const r = await h.cli(['completion', shell]);
      expect(r).toEqual({ code: 0, stdout: completionScript(shell), stderr: '' });
      expect(readFileSync(join(root, 'completions', SCRIPT_FILES[shell]), 'utf8'), `completions/${SCRIPT_FILES[shell]} is stale: run npm run gen:completions`).toBe(r.stdout);
    }
  });

  it('an unknown shell: exit 2 naming the choices', async () => {
    expect(await h.cli(['completion', 'powershell'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: <shell>: the shell must be one of bash, zsh, fish (got "powershell")\nHint: e.g. parcels completion bash\n',
    });
  });
});
