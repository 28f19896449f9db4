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
      const globals = stdout.slice(stdout.indexOf('\nGlobal Options:\n'));
      expect(globals.length, def.path.join(' ')).toBeGreaterThan(1);
      for (const option of Object.values(GLOBAL_FLAGS)) expect(globals, `${def.path.join(' ')}: ${option.flags}`).toContain(`  ${option.flags}  `);
      expect(globals).not.toContain('--version');
    }
  });

  it('an unknown topic exits 2 and lists the topics and commands', async () => {
    const names = COMMANDS.map((c) => c.path.join(' ')).join(', ');
    const expected = `Error: unknown help topic 'nope'\nTopics: exit-codes, environment\nCommands: ${names}\n`;
    expect(await cli(['help', 'nope'])).toEqual({ code: 2, stdout: '', stderr: expected });
    expect(await cli(['help', 'events', 'nope'])).toEqual({
      code: 2,
      stdout: '',
      stderr: expected.replace("'nope'", "'events nope'"),
    });
    expect(names).toContain('events add, attempts list');
  });
});
