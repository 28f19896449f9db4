/**
 * Issue 33 on the built CLI at a real terminal: what a person who lives in gh and kubectl sees —
 * help with the commands first, `-v` and `version`, `auth status` without a key, `track A B` with
 * one unknown id, the sandbox clock, a --jq error, address issues, and no command ever broken
 * across lines.
 */
import { describe, expect, it } from 'vitest';
import { hasPty, startCli } from '../helpers/pty.js';
import type { PtyOptions } from '../helpers/pty.js';
import { binaryEnv, parcels } from '../helpers/spawn.js';
import { servedForFile } from '../helpers/served.js';

const { sandbox, env } = servedForFile();

/** Runs `parcels args…` on a terminal to its end: its exit code and the screen's lines (stdout and stderr as shown). */
async function shown(args: string[], opts: Partial<PtyOptions> = {}): Promise<{ code: number; lines: string[] }> {
  const run = startCli(args, { env, columns: 100, ...opts });
  const code = await run.exited;
  return { code, lines: run.lines().filter((line) => line !== '') };
}

/** Every backticked command on the screen is whole on its line. */
function noCommandBroken(lines: readonly string[]): void {
  for (const line of lines) expect((line.split('`').length - 1) % 2, line).toBe(0);
}

describe.skipIf(!hasPty)('issue 33 at a terminal', () => {
  it('help lists the commands first and the global options last; a group its subcommands first', async () => {
    const top = await shown(['--help']);
    expect(top.code).toBe(0);
    const headings = top.lines.filter((line) => /^[A-Z][^:]*:$/.test(line));
    expect(headings[0]).toBe('Parcels, their events and attempts:');
    expect(headings.indexOf('Global options:')).toBeGreaterThan(headings.indexOf('Set-up: keys, profiles, settings, checks:'));
    const group = await shown(['events', '--help']);
    expect(group.lines.filter((line) => /^[A-Z][A-Za-z ]*:$/.test(line))).toEqual(['Commands:', 'Options:', 'Global options:']);
    // A group typed without a subcommand shows the same help, its subcommands first (exit 0, as gh).
    const bare = await shown(['events']);
    expect(bare.code).toBe(0);
    expect(bare.lines).toEqual(group.lines);
    expect(bare.lines.slice(bare.lines.indexOf('Commands:') + 1, bare.lines.indexOf('Commands:') + 3)).toEqual([
      "  list <id>              List a parcel's status events (at most 1000)",
      '  add [options] [id]     Report a status event (status 0-3)',
    ]);
    // A command's own options, then the global ones as gh's inherited flags, then its examples.
    const leaf = await shown(['list', '--help']);
    expect(leaf.lines.filter((line) => /^[A-Z][A-Za-z ]*:$/.test(line))).toEqual(['Options:', 'Global options:', 'Examples:']);
  });

  it('a bare -v says what it is; `parcels version` prints the version', async () => {
    const v = await shown(['-v']);
    expect(v.code).toBe(2);
    expect(v.lines).toEqual([
      "Error: -v traces a command's requests to stderr (it means --verbose, not the version): it goes with a command, as in parcels -v get <id>",
      'Hint: for the version, run `parcels version`',
    ]);
    const version = await shown(['version']);
    expect(version.code).toBe(0);
    expect(version.lines).toEqual([expect.stringMatching(/^parcels \d+\.\d+\.\d+\S* \(node \d+\.\d+\.\d+, linux-x64\)$/)]);
  });

  it('auth status without a key: the record, then exit 3 with the command that logs in', async () => {
    const r = await shown(['auth', 'status'], { env: binaryEnv({ PARCELS_BASE_URL: sandbox.url }) });
    expect(r.code).toBe(3);
    expect(r.lines.slice(-2)).toEqual(['Error: not logged in: no API key for profile "default"', 'Hint: run `parcels auth login --profile default`, or set PARCELS_API_KEY']);
  });

  it('track A B with one unknown id shows the one it found, then the error of the other (exit 4)', async () => {
    const created = await parcels(['create', '--courier', 'A-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '1', '--quiet'], { env });
    const id = created.stdout.trim();
    const missing = '00000000-0000-4000-8000-000000000000';
    const r = await shown(['track', id, missing]);
    expect(r.code).toBe(4);
    expect(r.lines[0]).toMatch(/^ID\s+STATUS/);
    expect(r.lines[1]).toMatch(new RegExp(`^${id.slice(0, 8)}\\S*\\s+registered`));
    expect(r.lines).toContain(`Error: parcel ${missing}: no parcel with entry_id ${missing}`);
  });

  it('the sandbox clock shows its time first and how far it is from this machine', async () => {
    const r = await shown(['sandbox', 'clock'], { env: { ...env, PARCELS_CONFIG_DIR: sandbox.dir } });
    expect(r.code).toBe(0);
    expect(r.lines[0]).toMatch(/^now\s+today \d\d:\d\d/);
    expect(r.lines[1]).toBe('moved   in step with this machine');
  });

  it('a moved sandbox clock: its time first, aged from its own clock, then how far it is moved', async () => {
    const embedded = binaryEnv();
    expect((await parcels(['--sandbox', 'sandbox', 'clock', 'advance', '20h'], { env: embedded })).code).toBe(0);
    const r = await shown(['--sandbox', 'sandbox', 'clock'], { env: embedded, tz: 'UTC' });
    expect(r.code).toBe(0);
    // "today" and "just now" are said from the sandbox's clock, not this machine's (20 h behind it).
    expect(r.lines[0]).toMatch(/^now {5}today \d\d:\d\d \(just now\)$/);
    expect(r.lines[1]).toMatch(/^moved {3}20 h( \d+ s)? ahead of this machine$/);
  });

  it('a --jq error is text with its hint, not a JSON blob; address issues read as lines', async () => {
    const jq = await shown(['couriers', '--jq', '.couriers |']);
    expect(jq.code).toBe(2);
    expect(jq.lines[0]).toMatch(/^Error: --jq jq: error: syntax error/);
    expect(jq.lines.at(-1)).toBe('Hint: check the expression: .couriers |');
    const address = await shown(['validate-address', '--country', 'NL', '--postal-code', '0234', '--number', '1']);
    expect(address.lines).toContain('valid   no');
    expect(address.lines.some((line) => /^issues {2}postal_code: must be a Dutch postcode/.test(line))).toBe(true);
  });

  it('doctor at 60 columns never breaks a command across lines', async () => {
    const r = await shown(['doctor'], { env: binaryEnv({ PARCELS_BASE_URL: sandbox.url }), columns: 60 });
    expect(r.code).toBe(3);
    expect(r.lines.some((line) => line.includes('`parcels auth login --profile default`'))).toBe(true);
    noCommandBroken(r.lines);
  });
});
