/**
 * The global flags are derived, not listed again: with one more flag in the definition list (and
 * nothing else changed), commander accepts it, both helps show it, completion offers it, the command
 * reference documents it, hints keep its value with it, and commands receive it typed.
 */
import { describe, expect, it, vi } from 'vitest';
import type { GlobalFlagSpec } from '../../src/definitions/definition.js';
import type * as Globals from '../../src/definitions/globals.js';
import type { FlagName } from '../../src/schemas/flag-name.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';

// Hoisted with the mock below, which runs before any import.
const EXTRA = vi.hoisted(
  () => ({ type: 'choice', flags: '--extra-global <mode>', description: 'a flag only this test defines', choices: ['one', 'two'], env: 'PARCELS_EXTRA' }) as const satisfies GlobalFlagSpec,
);

vi.mock('../../src/definitions/globals.js', async (importOriginal) => {
  const original = await importOriginal<typeof Globals>();
  return { ...original, GLOBAL_FLAGS: { ...original.GLOBAL_FLAGS, extraGlobal: EXTRA } };
});

const { fastAnswer } = await import('../../src/fast-path.js');
const { complete } = await import('../../src/completions/complete.js');
const { commandsReference } = await import('../../src/docs/commands-reference.js');
const { resolveGlobalOptions } = await import('../../src/command-kit/resolve-flags.js');
const { sameCommand } = await import('../../src/hint/hint.js');
const { commandLine } = await import('../../src/command-kit/command-line.js');

const env = { PARCELS_CONFIG_DIR: tempConfigDir(), NO_COLOR: '1' };
const noValues = {
  env: {},
  profiles: () => ({ current: undefined, names: [], baseUrls: {} }),
  targetKey: () => undefined,
  couriers: () => [],
  codeNames: () => ({}),
  parcelIds: () => [],
};
const HELP_LINE = /^ {2}--extra-global <mode> +a flag only this test defines \(env PARCELS_EXTRA\)$/m;

describe('a global flag added to the definition list', () => {
  it('is in the top-level help (fast path) and in every command help (commander)', async () => {
    // The top-level help wraps descriptions to the terminal (80 columns here): the flag and the start of its line.
    expect(fastAnswer(['--help'])).toMatch(/^ {2}--extra-global <mode> +a flag only this test defines\b/m);
    const help = await runCli(['get', '--help'], { env });
    expect(help.code).toBe(0);
    expect(help.stdout.slice(help.stdout.indexOf('Global options:'))).toMatch(HELP_LINE);
  });

  it('is accepted on any command, and a value outside its choices is refused naming it (exit 2)', async () => {
    expect(await runCli(['completion', 'fish', '--extra-global', 'one'], { env })).toMatchObject({ code: 0, stderr: '' });
    expect(await runCli(['completion', 'fish', '--extra-global', 'three'], { env })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: --extra-global must be one of one, two (got "three")\n',
    });
    expect(resolveGlobalOptions({ extraGlobal: 'two' })).toMatchObject({ extraGlobal: 'two' });
  });

  it('completes, with its values', () => {
    expect(complete(['get', '--extra-'], noValues)).toEqual([{ value: '--extra-global', description: 'a flag only this test defines (env PARCELS_EXTRA)' }]);
    expect(complete(['list', '--extra-global', ''], noValues)).toEqual([{ value: 'one' }, { value: 'two' }]);
  });

  it('is documented in the global flags of docs/commands.md', () => {
    expect(commandsReference()).toContain('| `--extra-global <mode>` | a flag only this test defines | — | one of `one`, `two`; env `PARCELS_EXTRA` |\n');
  });

  it('keeps its value in hints: the word after it is not taken for an argument', () => {
    expect(sameCommand(commandLine(['list', '--extra-global', 'two', '--limit', '5']), { drop: ['--extra-global' as string as FlagName] })).toBe('parcels list --limit 5');
  });
});
