/**
 * `parcels sandbox logs` on a real terminal after faults aimed with `parcels sandbox faults add`:
 * the FAULT column appears (only a terminal shows it, only when an entry shown has a fault) and
 * marks each answer a fault shaped, by the fault's id. A person's shell against `parcels sandbox
 * serve`, its clock stopped at a set time so that the TIME column reads the same on every run.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { hasPty, startShell, typedCommand } from '../helpers/pty.js';
import { ALL_KEYS, FULL_KEY, TEST_SEED } from '../helpers/seed.js';
import type { ServedSandbox } from '../helpers/spawn.js';
import { binaryEnv, serveSandbox } from '../helpers/spawn.js';

let sandbox: ServedSandbox | undefined;
afterEach(async () => {
  expect(await sandbox?.stop()).toBe(0);
  sandbox = undefined;
});

/** A parcel path whose id is escape sequences, percent-encoded as a client may send it. */
const HOSTILE_PATH = '/deliveries/v1/parcels/%1B%5B31mred%1B%5B0m';

describe.skipIf(!hasPty)('sandbox logs on a terminal: the FAULT column', () => {
  it('marks the answers aimed faults shaped, the retry that succeeded has none, and a hostile path stays as sent', async () => {
    sandbox = await serveSandbox(TEST_SEED, ['--frozen']);
    // The sandbox's own config dir: `sandbox clock`, `faults` and `logs` find its admin token there.
    const env = binaryEnv({ PARCELS_CONFIG_DIR: sandbox.dir, PARCELS_BASE_URL: sandbox.url, PARCELS_API_KEY: FULL_KEY });
    const term = startShell({ env, columns: 100, rows: 40, tz: 'UTC' });

    const clock = await typedCommand(term, 'parcels sandbox clock set 2099-06-01T09:30:00Z');
    expect(clock.code, clock.lines.join('\n')).toBe(0);
    expect(await typedCommand(term, 'parcels sandbox faults add --route attempts.create --status 503 --retry-after 0 --times 1')).toEqual({
      code: 0,
      lines: ['flt_1  attempts.create: 503; 1 of 1 left, 0 hits'],
    });
    expect(await typedCommand(term, `parcels sandbox faults add --method GET --path '${HOSTILE_PATH}' --status 500`)).toEqual({
      code: 0,
      lines: [`flt_2  GET ${HOSTILE_PATH}: 500; until removed, 0 hits`],
    });

    const created = await typedCommand(term, 'parcels create --courier A-BIKE --country NL --postal-code 1234AB --number 7 --quiet');
    expect(created.code, created.lines.join('\n')).toBe(0);
    const id = created.lines[0] as string;
    // The first try meets the 503; the CLI's own retry is recorded.
    const attempt = await typedCommand(term, `parcels attempts add ${id} --outcome failed --reason not_at_home`);
    expect(attempt.code).toBe(0);
    expect([attempt.lines[0], attempt.lines.at(-1)]).toEqual(['503 Service Unavailable from the service; retrying in 0.0 s (1/3)', `✓ Recorded delivery attempt for parcel ${id}`]);
    const hostile = await typedCommand(term, `parcels api GET '${HOSTILE_PATH}' --retries 0`);
    expect([hostile.code, hostile.lines.at(-2)]).toEqual([8, 'Error: injected fault flt_2: internal failure']);

    const logs = await typedCommand(term, 'parcels sandbox logs');
    expect(logs).toEqual({
      code: 0,
      lines: [
        'SEQ  TIME         METHOD  ROUTE                                                   HTTP  FAULT',
        '1    today 09:30  GET     /reference                                              200   -',
        '2    today 09:30  POST    /parcels                                                201   -',
        `3    today 09:30  POST    /parcels/${id}/attempts  503   flt_1`,
        `4    today 09:30  POST    /parcels/${id}/attempts  201   -`,
        '5    today 09:30  GET     /parcels/%1B%5B31mred%1B%5B0m                           500   flt_2',
        'Not shown at 100 columns: CODE, REPLAY, MS (widen the terminal, or use -o wide or --json)',
      ],
    });
    // Only the entries shown decide: without a fault among them, no FAULT column.
    const plain = await typedCommand(term, 'parcels sandbox logs --route parcels.create');
    expect(plain.code).toBe(0);
    expect(plain.lines[0]).toBe('SEQ  TIME         METHOD  ROUTE     HTTP  REPLAY  MS');
    // The latency (MS) is measured: any number.
    expect(plain.lines.slice(1)).toEqual([expect.stringMatching(/^2 {4}today 09:30 {2}POST {4}\/parcels {2}201 {3}no {6}\d+\.\d+$/)]);
    term.type('exit\r');
    expect(await term.exited).toBe(0);
    // The path's escape sequences never reach the terminal decoded, nor does any key.
    expect(term.raw()).not.toContain('\u001b[31m');
    for (const key of ALL_KEYS) expect(term.raw()).not.toContain(key);
  });
});
