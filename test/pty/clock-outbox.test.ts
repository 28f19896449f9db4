/**
 * Issue 30 on a real terminal (the built CLI): doctor after `sandbox clock advance` reports the
 * moved test clock with how to start over, never NTP; a skew seen in one answer is said once and
 * applied only when a second answer agrees (a loopback sandbox whose Date runs 600 s ahead); the
 * outbox at 100 columns says what each entry carries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { hasPty, runCli, startCli } from '../helpers/pty.js';
import { FULL_KEY, TEST_SEED } from '../helpers/seed.js';
import { binaryEnv, parcels } from '../helpers/spawn.js';
import { shellWords } from '../helpers/terminal.js';

const MISSING = '00000000-0000-4000-8000-000000000000';
const nowS = (): number => Math.floor(Date.now() / 1000);

describe.skipIf(!hasPty)('doctor after a sandbox clock move', () => {
  it('says how far the test clock moved and how to start over, never NTP; the pasted reset sets it back', async () => {
    const env = binaryEnv();
    expect((await runCli(['--sandbox', 'sandbox', 'clock', 'advance', '20h'], { env })).code).toBe(0);
    // Wide enough for the whole line either way the skew reads (below).
    const doctor = await runCli(['--sandbox', 'doctor'], { env, columns: 240 });
    expect(doctor.code).toBe(0);
    const at = doctor.lines.findIndex((line) => line.startsWith('✓ clock'));
    const clock = doctor.lines[at] as string;
    // The Date header counts whole seconds and the answer is read a moment after it was stamped: on a
    // loaded machine the skew reads a second short of the 20 h (19 h 59 m 59 s, said `19 h 59 m`).
    expect(clock).toMatch(
      /^✓ clock {19}the sandbox runs a test clock, moved on purpose: this machine's clock is (20 h|19 h 59 m) behind it; to start over: `parcels sandbox reset` \(it deletes every parcel, event and attempt\)$/,
    );
    expect(doctor.raw).not.toContain('NTP');
    expect(doctor.lines.at(-1)).toBe('✓ All checks passed');

    // Pasted as printed, answered at its prompt: the sandbox starts over, its clock with it.
    const reset = startCli(shellWords(/`parcels ([^`]+)`/.exec(clock)?.[1] as string), { env });
    await reset.waitFor('Delete every parcel, event and attempt');
    reset.type('y\r');
    expect(await reset.exited).toBe(0);
    const after = await runCli(['--sandbox', 'doctor'], { env, columns: 200 });
    expect(after.lines.find((line) => line.startsWith('✓ clock'))).toBe('✓ clock                   in step with the service');
  });
});

describe.skipIf(!hasPty)('a skew seen once is said once', () => {
  let ahead: RunningSandbox;
  beforeAll(async () => {
    ahead = await startSandbox({ seed: TEST_SEED, db: ':memory:', port: 0, clockOffset: 600 });
  });
  afterAll(() => ahead.close());

  /** The `occurred_at` an `events add` would send now (a dry run: nothing sent, nothing learned). */
  async function defaultAt(env: NodeJS.ProcessEnv): Promise<number> {
    const r = await parcels(['events', 'add', MISSING, '--status', 'in_transit', '--dry-run', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const sent = JSON.parse(r.stdout) as { body: { occurred_at: number } }[] | { body: { occurred_at: number } };
    return ((Array.isArray(sent) ? sent[0] : sent)?.body as { occurred_at: number }).occurred_at;
  }

  const amount = '(9 m 59 s|10 m|10 m 1 s)';

  it('one answer 10 minutes off: one warning, nothing applied; a second agreeing answer applies it; a third says nothing', async () => {
    const env = binaryEnv({ PARCELS_BASE_URL: ahead.url, PARCELS_API_KEY: FULL_KEY });
    // `api`: one request, so one answer per command.
    const read = ['api', 'GET', '/account/v1/couriers'];
    const first = await runCli(read, { env, columns: 200 });
    expect(first.code).toBe(0);
    const warnings = (run: { lines: string[] }): string[] => run.lines.filter((line) => line.startsWith('! '));
    expect(warnings(first)).toHaveLength(1);
    expect(warnings(first)[0]).toMatch(new RegExp(`^! The service's clock is ${amount} ahead of this machine's \\(from its Date header\\); one answer says so: nothing is corrected until another agrees$`));
    expect(Math.abs((await defaultAt(env)) - nowS())).toBeLessThanOrEqual(2);

    const second = await runCli(read, { env, columns: 200 });
    expect(second.code).toBe(0);
    expect(warnings(second)).toHaveLength(1);
    expect(warnings(second)[0]).toMatch(new RegExp(`^! The service's clock is ${amount} ahead of this machine's \\(from its Date header\\); times given as now, -15m or today 14:30 are corrected by it$`));
    expect(Math.abs((await defaultAt(env)) - (nowS() + 600))).toBeLessThanOrEqual(2);

    expect(warnings(await runCli(read, { env, columns: 200 }))).toEqual([]);
  });
});

describe.skipIf(!hasPty)('the outbox at 100 columns', () => {
  it('two waiting creates differ by what they carry; an event says its status by name', async () => {
    const env = binaryEnv();
    const create = ['--sandbox', 'create', '--courier', 'DEMO-BIKE', '--country', 'NL', '--postal-code'];
    for (const args of [[...create, '1234AB', '--number', '99'], [...create, '1011AB', '--number', '7'], ['--sandbox', 'events', 'add', MISSING, '--status', 'picked_up']]) {
      expect((await parcels([...args, '--offline'], { env })).code).toBe(75);
    }
    const { code, lines } = await runCli(['--sandbox', 'outbox'], { env, columns: 100 });
    expect(code).toBe(0);
    expect(lines, lines.join('\n')).toHaveLength(5);
    expect(lines[0]).toBe(`SEQ  AGE  COMMAND     PARCEL${' '.repeat(32)}WHAT                 STATE`);
    expect(lines[1]).toMatch(new RegExp(`^1 {4}\\d+[sm] +create {6}- {37}DEMO-BIKE 1234AB 99  waiting$`));
    expect(lines[2]).toMatch(new RegExp(`^2 {4}\\d+[sm] +create {6}- {37}DEMO-BIKE 1011AB 7   waiting$`));
    expect(lines[3]).toMatch(new RegExp(`^3 {4}\\d+[sm] +events add  ${MISSING}  status picked_up     waiting$`));
    expect(lines[4]).toBe('Not shown at 100 columns: CAPTURED (widen the terminal, or use -o wide or --json)');
  });
});
