/** `parcels help …`: a command's or group's help, the topics, and an unknown topic (exit 2 with the list). */
import { describe, expect, it } from 'vitest';
import { GLOBAL_FLAGS } from '../../src/definitions/globals.js';
import { COMMANDS } from '../../src/definitions/table.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';

const env = { PARCELS_CONFIG_DIR: tempConfigDir(), NO_COLOR: '1' };
const cli = (argv: string[]) => runCli(argv, { env });

describe('parcels help COMMAND', () => {
  it('help events add prints the same as events add --help (the command, not its group)', async () => {
    const help = await cli(['help', 'events', 'add']);
    expect(help).toEqual({ code: 0, stdout: (await cli(['events', 'add', '--help'])).stdout, stderr: '' });
    expect(help.stdout).toMatch(/^Usage: parcels events add \[options\] \[id\]\n/);
    expect(help.stdout).toContain('  parcels events add <id> --status in_transit\n');
  });

  it('help for every command is its --help; a group gives the group', async () => {
    for (const def of COMMANDS) {
      const help = await cli(['help', ...def.path]);
      expect(help, def.path.join(' ')).toEqual({ code: 0, stdout: (await cli([...def.path, '--help'])).stdout, stderr: '' });
      expect(help.stdout, def.path.join(' ')).toContain(`Usage: parcels ${def.path.join(' ')}`);
    }
    const group = await cli(['help', 'events']);
    expect(group.code).toBe(0);
    expect(group.stdout).toMatch(/^Usage: parcels events \[options\] \[command\]\n/);
  });

  it("every command's help lists the global flags it inherits, and not --version", async () => {
    for (const def of COMMANDS) {
      const { stdout } = await cli([...def.path, '--help']);
      const globals = stdout.slice(stdout.indexOf('\nGlobal options:\n'));
      expect(globals.length, def.path.join(' ')).toBeGreaterThan(1);
      for (const option of Object.values(GLOBAL_FLAGS)) expect(globals, `${def.path.join(' ')}: ${option.flags}`).toContain(`  ${option.flags}  `);
      expect(globals).not.toContain('--version');
    }
  });

  it('an unknown topic exits 2 and lists the topics and commands, never cutting a command name', async () => {
    const expected = [
      "Error: unknown help topic 'nope'",
      'Topics: exit-codes, environment',
      'Commands:',
      '  create, get, list, patch, events list, events add, attempts list,',
      '  attempts add, track, outbox, outbox drop, outbox flush, batches,',
      '  batches prune, validate-address, usage, usage daily, usage requests, couriers,',
      '  overview, reference, oracle, api, auth login, auth status, auth token,',
      '  auth logout, auth switch, doctor, config list, config get, config set,',
      '  config use, config unset, sandbox serve, sandbox reset, sandbox clock,',
      '  sandbox tenants, sandbox simulate, sandbox logs, sandbox faults, sandbox ui,',
      '  completion, version',
      '',
    ].join('\n');
    expect(await cli(['help', 'nope'])).toEqual({ code: 2, stdout: '', stderr: expected });
    expect(await cli(['help', 'events', 'nope'])).toEqual({
      code: 2,
      stdout: '',
      stderr: expected.replace("'nope'", "'events nope'"),
    });
  });

  it('a mistyped group gets a did-you-mean to paste', async () => {
    const r = await cli(['help', 'evnts']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^Error: unknown help topic 'evnts'\nHint: did you mean `parcels help events`\?\n/);
  });
});

describe("a command's help: gh's order", () => {
  it('a group lists its subcommands first, then its options, then the global options', async () => {
    const { code, stdout } = await cli(['events', '--help']);
    expect(code).toBe(0);
    const headings = stdout.split('\n').filter((line) => /^[A-Z][A-Za-z ]*:$/.test(line));
    expect(headings).toEqual(['Commands:', 'Options:', 'Global options:']);
  });

  it('a command: its arguments and options, then the global options, then the examples', async () => {
    const { stdout } = await cli(['events', 'add', '--help']);
    const headings = stdout.split('\n').filter((line) => /^[A-Z][A-Za-z ]*:$/.test(line));
    expect(headings).toEqual(['Options:', 'Global options:', 'Examples:']);
    expect(stdout).not.toContain('Global Options:');
  });
});

describe('version', () => {
  it('parcels version: a line for people, a record for scripts; --version stays the number alone', async () => {
    const line = await cli(['version']);
    expect(line).toEqual({ code: 0, stdout: `parcels 0.0.0-dev (node ${process.versions.node}, ${process.platform}-${process.arch})\n`, stderr: '' });
    const json = await cli(['version', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ version: '0.0.0-dev', node: process.versions.node, platform: `${process.platform}-${process.arch}` });
    expect(await cli(['--version'])).toEqual({ code: 0, stdout: '0.0.0-dev\n', stderr: '' });
  });

  it('a bare -v says what it is (exit 2) instead of printing the whole help', async () => {
    const expected = (flag: string) =>
      `Error: ${flag} traces a command's requests to stderr (it means --verbose, not the version): it goes with a command, as in parcels ${flag} get <id>\nHint: for the version, run \`parcels version\`\n`;
    expect(await cli(['-v'])).toEqual({ code: 2, stdout: '', stderr: expected('-v') });
    expect(await cli(['--verbose'])).toEqual({ code: 2, stdout: '', stderr: expected('--verbose') });
  });
});
