/**
 * Flag names are typed from the definitions (src/schemas/flag-name.ts): a misspelt or renamed
 * flag fails `npm run typecheck` wherever it is named. The `@ts-expect-error` lines below are that
 * check biting (the type-check, which compiles this file, fails if one of them is accepted); the
 * tests check at run time that the tables naming flags name flags that exist.
 */
import { describe, expect, it } from 'vitest';
import { BULK_ONLY_FLAGS } from '../../src/bulk/flags.js';
import { FLAG_FOR_FIELD } from '../../src/args/field-flags.js';
import { VALUES_BY_FLAG } from '../../src/completions/value-candidates.js';
import { longFlag } from '../../src/definitions/definition.js';
import type { CommandFlag, FlagName } from '../../src/schemas/flag-name.js';
import { bulk } from '../../src/definitions/flags.js';
import { GLOBAL_FLAGS } from '../../src/definitions/globals.js';
import type { definitions } from '../../src/definitions/table.js';
import { COMMANDS } from '../../src/definitions/table.js';
import { UsageError } from '../../src/errors.js';
import { WHERE_FLAGS, hintCommand, sameCommand } from '../../src/hint/hint.js';
import { commandLine } from '../../src/command-kit/command-line.js';
import { STATE_FIELDS } from '../../src/schemas/required-state.js';
import { timeFlag } from '../../src/args/time-input.js';

/** Every long flag the definitions give, commander's own included. */
const DEFINED = new Set<string>(['--help', '--version', ...[...Object.values(GLOBAL_FLAGS), ...COMMANDS.flatMap((c) => Object.values(c.flags))].map(longFlag)]);

describe('flag names typed from the definitions', () => {
  it('a misspelt flag fails the type-check wherever a flag is named', () => {
    const line = commandLine(['list', '--status', '2'], []);
    // @ts-expect-error --statsu is no flag: an error's field must name one that exists
    const error = new UsageError('--statsu is required', '--statsu');
    expect(error.field).toBe('--statsu');
    // @ts-expect-error a hint drops only flags that exist
    expect(sameCommand(line, { drop: ['--curser'] })).toBe('parcels list --status 2');
    // @ts-expect-error a hint's command names only flags that exist
    expect(sameCommand(line, { add: ['--limt', '5'] })).toBe('parcels list --status 2 --limt 5');
    // @ts-expect-error a layer without a command line names its commands' flags too
    expect(hintCommand(['auth', 'login', '--profle', 'ops'])).toEqual({ run: ['auth', 'login', '--profle', 'ops'] });
    // @ts-expect-error a time flag's errors name it
    expect(() => timeFlag('later', '--att', 0)).toThrow(expect.objectContaining({ field: '--att' }));
    // @ts-expect-error --refresh is patch's flag, not create's
    const notCreates: CommandFlag<typeof definitions.create> = '--refresh';
    expect(DEFINED.has(notCreates)).toBe(true);
  });

  it('flags that exist, a flag with its value, and names that are not flags pass', () => {
    const fields: readonly string[] = [
      new UsageError('--status is required', '--status').field ?? '',
      new UsageError('--set parcel_weight must be an integer', '--set parcel_weight').field ?? '',
      new UsageError("missing ID: the parcel's entry_id", 'ID').field ?? '',
      new UsageError('api_key cannot be set with `config set`', 'api_key').field ?? '',
    ];
    expect(fields).toEqual(['--status', '--set parcel_weight', 'ID', 'api_key']);
    const creates: CommandFlag<typeof definitions.create>[] = ['--postal-code', '--from', '--sandbox', '--help'];
    const anyCommands: FlagName[] = ['--refresh', '--delivered-location-type', '--no-color'];
    expect([...creates, ...anyCommands].filter((flag) => !DEFINED.has(flag))).toEqual([]);
  });

  it("the long flag of a spec is read from its syntax, typed as it is", () => {
    const data: '--data' = longFlag({ flags: '-d, --data <json>' });
    const color: '--no-color' = longFlag(GLOBAL_FLAGS.color);
    expect([data, color]).toEqual(['--data', '--no-color']);
  });

  it("bulk's flag list is the bulk definition's, less --from and the outbox's flags", () => {
    expect(BULK_ONLY_FLAGS.map((key) => longFlag(bulk[key]))).toEqual(['--format', '--delimiter', '--ignore-columns', '--ignore-unknown-columns', '--id-column', '--concurrency', '--rate', '--batch-id', '--continue', '--new-batch', '--check']);
    const bulkCommands = COMMANDS.filter((c) => Object.values(c.flags).includes(bulk.from));
    expect(bulkCommands.map((c) => c.path.join(' '))).toEqual(['create', 'events add', 'attempts add']);
    for (const command of bulkCommands) {
      expect(BULK_ONLY_FLAGS.map((key) => command.flags[key])).toEqual(BULK_ONLY_FLAGS.map((key) => bulk[key]));
    }
  });

  it("the tables that name flags (completion's values, the target flags, the flag of a request field or a required state) name flags that exist", () => {
    const named = [...Object.keys(VALUES_BY_FLAG), ...WHERE_FLAGS, ...Object.values(FLAG_FOR_FIELD), ...Object.values(STATE_FIELDS).map((s) => s.flag)];
    expect(Object.keys(VALUES_BY_FLAG)).toEqual(['--profile', '--require-scope', '--status', '--route', '--method', '--path', '--outcome', '--reason', '--delivered-location-type', '--service-type', '--courier']);
    expect(named.filter((flag) => !DEFINED.has(flag))).toEqual([]);
  });
});
