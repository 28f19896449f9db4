/**
 * Issue 30, "offline without knowing the flag": a one-shot write the service cannot take says how to
 * queue it (the user's own command with --queue, which pasted queues: exit 75); `queue_writes yes`
 * queues by default and `--no-queue` opts out; `--from` runs queue only with --queue; a patch says
 * the change was not made and gives the command that sends it again, its If-Match kept. "Offline" is
 * a loopback port the OS gave out and took back. Every hint printed here is run as printed.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import { hintedCommands } from '../helpers/terminal.js';
import type { Harness, RunOpts } from './harness.js';
import { closedPortUrl, createParcel, expectNoSecrets, startHarness } from './harness.js';
import { isoSeconds } from '../../src/schemas/time-text.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { TEST_SEED } from '../helpers/seed.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  expectNoSecrets(h.seen);
  await h.close();
});

const PARCEL = '3f1c9a2b-0000-4000-8000-000000000000';
/** The clock of every run here: the observation time a command fills in is this one. */
const NOW = Math.floor(Date.now() / 1000);
const SETTING = '`parcels config set queue_writes yes` makes that the default';

/** A config dir whose service is a closed port; one attempt per request (--retries 0 on each command line). */
async function offline(): Promise<RunOpts & { url: string; refused: string }> {
  const url = await closedPortUrl();
  return { url, dir: tempConfigDir(), env: { PARCELS_BASE_URL: url }, now: () => NOW, refused: `Error: connection refused: connect ECONNREFUSED ${url.slice('http://'.length)}\n` };
}

describe('a one-shot write the service cannot take says how to queue it', () => {
  it('events add: the hint is the same command with its filled-in time and --queue; pasted, it queues (exit 75)', async () => {
    const o = await offline();
    const r = await h.cli(['events', 'add', PARCEL, '--status', 'in_delivery', '--retries', '0'], o);
    const queue = `parcels events add ${PARCEL} --status in_delivery --retries 0 --at ${isoSeconds(NOW)} --queue`;
    expect(r).toEqual({ code: 8, stdout: '', stderr: `${o.refused}Hint: \`${queue}\` keeps it in the outbox to send later (exit 75; ${SETTING})\n` });
    const [pasted, setting] = hintedCommands(r.stderr);
    expect(await h.cli(pasted as string[], o)).toEqual({ code: 75, stdout: '', stderr: '! queued (1 waiting); `parcels outbox flush` sends it\n' });
    expect(setting).toEqual(['config', 'set', 'queue_writes', 'yes']);
    expect(await h.cli(['outbox', '-q'], o)).toEqual({ code: 0, stdout: '1\n', stderr: '' });
  });

  it('attempts add pins its time too; create has none to pin; --at typed by the user is kept as typed', async () => {
    const o = await offline();
    const attempt = await h.cli(['attempts', 'add', PARCEL, '--outcome', 'failed', '--reason', 'not_at_home', '--retries', '0'], o);
    expect(attempt.code).toBe(8);
    expect(attempt.stderr).toBe(
      `${o.refused}Hint: \`parcels attempts add ${PARCEL} --outcome failed --reason not_at_home --retries 0 --at ${isoSeconds(NOW)} --queue\` keeps it in the outbox to send later (exit 75; ${SETTING})\n`,
    );
    const create = await h.cli(['create', '--courier', 'A-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '10', '--retries', '0'], o);
    expect(create.stderr).toBe(
      `${o.refused}Hint: \`parcels create --courier A-BIKE --country NL --postal-code 1234AB --number 10 --retries 0 --queue\` keeps it in the outbox to send later (exit 75; ${SETTING})\n`,
    );
    const typedAt = await h.cli(['events', 'add', PARCEL, '--status', '1', '--at', '-5m', '--retries', '0'], o);
    expect(typedAt.stderr).toBe(`${o.refused}Hint: \`parcels events add ${PARCEL} --status 1 --at -5m --retries 0 --queue\` keeps it in the outbox to send later (exit 75; ${SETTING})\n`);
    for (const r of [attempt, create]) expect((await h.cli(hintedCommands(r.stderr)[0] as string[], o)).code).toBe(75);
    expect(await h.cli(['outbox', '-q'], o)).toEqual({ code: 0, stdout: '1\n2\n', stderr: '' });
  });

  it('a 5xx after the retries: the service\'s hint, then the one that queues', async () => {
    const failing = await startHarness({ faults: { failRate: 1, seed: 1, retryAfterS: 0 } });
    try {
      const o = { dir: tempConfigDir(), now: () => NOW };
      const r = h.record(await failing.cli(['events', 'add', PARCEL, '--status', '2', '--retries', '0'], o));
      expect(r.code).toBe(8);
      expect(r.stderr).toMatch(/^Error: injected fault: .+\n/);
      expect(r.stderr.slice(r.stderr.indexOf('\nHint: ') + 1)).toBe(
        `Hint: the service failed or is unavailable: try again later (raise --retries to retry longer); or \`parcels events add ${PARCEL} --status 2 --retries 0 --at ${isoSeconds(NOW)} --queue\` keeps it in the outbox to send later (exit 75; ${SETTING})\n`,
      );
      expect((await failing.cli(hintedCommands(r.stderr)[0] as string[], o)).code).toBe(75);
    } finally {
      await failing.close();
    }
  });
});

describe('queue_writes yes: one-shot writes queue by default', () => {
  it('queues without the flag (saying why); --no-queue sends only; --no-queue --offline is refused; a --from run does not queue', async () => {
    const o = await offline();
    expect(await h.cli(['config', 'set', 'queue_writes', 'yes'], o)).toEqual({ code: 0, stdout: '', stderr: '✓ Set queue_writes = yes for profile "default"\n' });
    expect(await h.cli(['config', 'get', 'queue_writes'], o)).toEqual({ code: 0, stdout: 'yes\n', stderr: '' });
    expect(await h.cli(['events', 'add', PARCEL, '--status', 'in_transit', '--retries', '0'], o)).toEqual({
      code: 75,
      stdout: '',
      stderr: "! queued (1 waiting; queue_writes is yes); `parcels outbox flush` sends it\n",
    });
    // Opted out: the hint queues it, and does not offer the setting it already has.
    const sendOnly = await h.cli(['events', 'add', PARCEL, '--status', 'in_transit', '--no-queue', '--retries', '0'], o);
    expect(sendOnly).toEqual({
      code: 8,
      stdout: '',
      stderr: `${o.refused}Hint: \`parcels events add ${PARCEL} --status in_transit --retries 0 --at ${isoSeconds(NOW)} --queue\` keeps it in the outbox to send later (exit 75)\n`,
    });
    expect(await h.cli(['events', 'add', PARCEL, '--status', 'in_transit', '--no-queue', '--offline'], o)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: --no-queue and --offline cannot be used together\n',
    });
    const file = join(o.dir as string, 'scans.ndjson');
    writeFileSync(file, `{"entry_id":"${PARCEL}"}\n`);
    const bulk = await h.cli(['events', 'add', '--from', file, '--status', 'in_transit', '--retries', '0'], o);
    expect(bulk.code, bulk.stderr).toBe(8);
    expect(await h.cli(['outbox', '-q'], o)).toEqual({ code: 0, stdout: '1\n', stderr: '' });
    expect(await h.cli(['config', 'set', 'queue_writes', 'maybe'], o)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: queue_writes must be yes or no (config set, got "maybe")\n',
    });
  });

  it('PARCELS_QUEUE_WRITES=yes does the same for one command line', async () => {
    const o = await offline();
    const r = await h.cli(['create', '--courier', 'A-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '10', '--retries', '0'], { ...o, env: { ...o.env, PARCELS_QUEUE_WRITES: 'yes' } });
    expect(r).toEqual({ code: 75, stdout: '', stderr: "! queued (1 waiting; queue_writes is yes); `parcels outbox flush` sends it\n" });
  });
});

describe('patch when the service cannot be reached', () => {
  it('says the change was not made; the hint is the same command, which keeps the If-Match of the version this reader read', async () => {
    const gone = await startHarness();
    const o = { dir: tempConfigDir() };
    const id = await createParcel(gone, [], o);
    expect((await gone.cli(['get', id], o)).code).toBe(0);
    const url = gone.sandbox.url;
    await gone.sandbox.close();
    const refused = `Error: connection refused: connect ECONNREFUSED ${url.slice('http://'.length)}; the change was not made\n`;
    const r = h.record(await gone.cli(['patch', id, '--weight', '500', '--retries', '0'], o));
    expect(r).toEqual({
      code: 8,
      stdout: '',
      stderr: `${refused}Hint: once the service answers, \`parcels patch ${id} --weight 500 --retries 0\` sends it again with If-Match of the version you read, so a change made since then is refused (412), never overwritten\n`,
    });
    const pinned = h.record(await gone.cli(['patch', id, '--weight', '500', '--if-match', '"abc"', '--retries', '0'], o));
    expect(pinned.stderr).toBe(
      `${refused}Hint: once the service answers, \`parcels patch ${id} --weight 500 --if-match '"abc"' --retries 0\` sends it again with the same --if-match, so a change made since then is refused (412), never overwritten\n`,
    );
    const refreshed = h.record(await gone.cli(['patch', id, '--weight', '500', '--refresh', '--retries', '0'], o));
    expect(refreshed.stderr).toBe(`${refused}Hint: once the service answers, \`parcels patch ${id} --weight 500 --refresh --retries 0\` sends it again reading the latest version first, as this one did (--refresh)\n`);
  });
});

describe('patch whose answer was lost', () => {
  it('says the change may have been made; the same command, pasted once the service answers, is refused (412) rather than applied over it', async () => {
    const db = join(tempConfigDir(), 'shared.db');
    const healthy = await startSandbox({ seed: TEST_SEED, db, port: 0 });
    const dropping = await startSandbox({ seed: TEST_SEED, db, port: 0, faults: { dropRate: 1, seed: 1 } });
    try {
      const dir = tempConfigDir();
      const id = await createParcel(h, [], { dir, env: { PARCELS_BASE_URL: healthy.url } });
      const etag = /^< etag: (".*")$/m.exec((await h.cli(['get', id, '--verbose'], { dir, env: { PARCELS_BASE_URL: healthy.url } })).stderr)?.[1] as string;
      const r = await h.cli(['patch', id, '--weight', '500', '--if-match', etag, '--retries', '0'], { dir, env: { PARCELS_BASE_URL: dropping.url } });
      expect(r.code).toBe(8);
      const [message, hint, rest] = r.stderr.split('\n');
      // undici's own words for the cut may vary; what follows them may not.
      expect(message).toMatch(/^Error: connection closed by the service before a complete answer.*; the change may have been made before the answer was lost$/);
      expect(hint).toBe(
        `Hint: run \`parcels get ${id}\` to see whether it was, or \`parcels patch ${id} --weight 500 --if-match '${etag}' --retries 0\` ` +
          'sends it again with the same --if-match, so a change made since then is refused (412), never overwritten',
      );
      expect(rest).toBe('');
      // It was made: sent again where the service answers, the same If-Match is refused, nothing applied twice.
      const again = await h.cli(hintedCommands(r.stderr)[1] as string[], { dir, env: { PARCELS_BASE_URL: healthy.url } });
      expect(again.code).toBe(5);
      expect(again.stderr).toMatch(/^Error: If-Match does not match the parcel's current ETag "[^"]+"; read it again\n/);
    } finally {
      await dropping.close();
      await healthy.close();
    }
  });
});
