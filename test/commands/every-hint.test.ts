/**
 * Issue 20: every hint is a command the user will paste. This file provokes each kind of hint the
 * CLI prints (errors, warnings, doctor fixes), collects every backquoted `parcels …` command from
 * what was printed, and runs each exactly as printed, where the user would: it must be accepted
 * (never exit 2) and do what the hint says it does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import type { CliResult } from '../helpers/cli.js';
import { hintedCommands, runAtTerminal, shellWords } from '../helpers/terminal.js';
import type { Harness, RunOpts } from './harness.js';
import { PARCEL_FLAGS, createParcel, expectNoSecrets, startHarness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  expectNoSecrets(h.seen);
  await h.close();
});

interface Provoked {
  name: string;
  opts: RunOpts;
  result: CliResult;
  /** Exit codes the hinted commands may end with (default: 0 only). */
  allowed?: readonly number[];
}

const MISSING = '00000000-0000-4000-8000-000000000000';

/** Each case: a command line that earns a hint, in its own config dir. */
async function provoke(): Promise<Provoked[]> {
  const out: Provoked[] = [];
  const sandbox = (): RunOpts => ({ dir: tempConfigDir(), env: { PARCELS_BASE_URL: undefined, PARCELS_API_KEY: undefined } });
  const run = async (name: string, argv: string[], opts: RunOpts, allowed?: readonly number[]): Promise<void> => {
    out.push({ name, opts, result: await h.cli(argv, opts), ...(allowed === undefined ? {} : { allowed }) });
  };

  const queued = sandbox();
  await h.cli(['--sandbox', 'outbox'], queued);
  await run('queued under --sandbox', ['--sandbox', 'create', '--courier', 'DEMO-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '3', '--offline'], queued);

  const rejected = sandbox();
  await h.cli(['--sandbox', 'events', 'add', MISSING, '--status', '1', '--offline'], rejected);
  // The flush's own summary names the way out for the rejected entry.
  await run('flush with a rejected entry', ['--sandbox', 'outbox', 'flush'], rejected);
  const doctor = sandbox();
  await h.cli(['--sandbox', 'events', 'add', MISSING, '--status', '1', '--offline'], doctor);
  await run('doctor: the outbox waits', ['--sandbox', 'doctor', '--json'], doctor, [0, 4]);
  await run('outbox drop of an unknown entry', ['--sandbox', 'outbox', 'drop', '9'], sandbox());

  const ids = { dir: tempConfigDir() };
  const id = await createParcel(h, [], ids);
  await run('unknown prefix', ['get', 'abcdef0123'], ids);
  await run('no cached ETag', ['patch', id, '--weight', '5'], { dir: tempConfigDir() });
  await run('--max without --all', ['list', '--max', '2'], ids);
  await run('status 4 as an event', ['events', 'add', id, '--status', '4'], ids);
  await run('a courier typo', ['create', ...PARCEL_FLAGS.map((w) => (w === 'A-BIKE' ? 'A-BIK' : w))], ids);
  const key = `every-hint-${Date.now()}`;
  await h.cli(['create', ...PARCEL_FLAGS, '--idempotency-key', key], ids);
  await run('a reused Idempotency-Key', ['create', ...PARCEL_FLAGS, '--weight', '3', '--idempotency-key', key], ids);
  const page = await h.cli(['list', '--limit', '1', '--status', '0'], { ...ids, tty: true });
  const cursor = /--cursor (\S+)/.exec(page.stderr)?.[1] as string;
  out.push({ name: 'the next page', opts: ids, result: page });
  await run('a cursor from another walk', ['list', '--courier', 'A-BIKE', '--cursor', cursor], ids);
  await run('a refused key at login', ['auth', 'login', '-p', 'bad', '--base-url', h.sandbox.url, '--with-key-stdin'], {
    dir: tempConfigDir(),
    env: { PARCELS_API_KEY: undefined, PARCELS_BASE_URL: undefined },
    stdin: 'not-a-real-key-0000',
  }, [0, 2, 3]);
  return out;
}

/** The doctor's fixes are in its JSON report; everything else prints hints on stderr. */
function hintsOf(p: Provoked): string[][] {
  const report = p.name.startsWith('doctor') ? (JSON.parse(p.result.stdout) as { checks: { fix?: string }[] }) : undefined;
  const text = report === undefined ? p.result.stderr : report.checks.map((c) => c.fix ?? '').join('\n');
  // The next-page hint is the one printed without backquotes: `More results: parcels … --cursor C  (or --all)`.
  const more = /More results: parcels (.*?) {2}\(or --all\)/.exec(text)?.[1];
  return [...hintedCommands(text), ...(more === undefined ? [] : [shellWords(more)])];
}

describe('every hint works as printed', () => {
  it('each provoked hint is a command that runs where the user ran theirs', async () => {
    const cases = await provoke();
    let ran = 0;
    for (const p of cases) {
      const hints = hintsOf(p);
      expect(hints.length, `${p.name}: ${p.result.stderr}`).toBeGreaterThan(0);
      for (const hint of hints) {
        // Run at a terminal, where a person pastes it: a prompt gets "y" (sandbox reset), a hidden key prompt the same key.
        const env = h.env({ ...(p.opts.dir === undefined ? {} : { PARCELS_CONFIG_DIR: p.opts.dir }), ...p.opts.env });
        const r = h.record(await runAtTerminal(hint, { env, typed: `${p.opts.stdin ?? 'y'}\n` }));
        const allowed = p.allowed ?? [0];
        expect(allowed, `${p.name}: \`parcels ${hint.join(' ')}\` → ${r.code}\n${r.stderr}`).toContain(r.code);
        expect(r.stderr, `${p.name}: \`parcels ${hint.join(' ')}\``).not.toMatch(/unknown option|unknown command|is required/);
        ran++;
      }
    }
    expect(ran).toBeGreaterThanOrEqual(cases.length);
  });
});
