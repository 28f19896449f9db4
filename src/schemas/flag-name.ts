/**
 * The flag names that exist, as types, so a misspelt or renamed flag fails `tsc` wherever it is
 * named: in an error (`new UsageError(msg, '--status')`), a hint (`sameCommand(line, { drop: ['--cursor'] })`),
 * completion's value table, bulk's flag list. Types only, and imports nothing: the lowest layers
 * (errors.ts, io/, schemas/, config/) import it without importing the definitions, which import
 * them. ./table.ts fills in `FlagRegistry` with the definitions (declaration merging), and every
 * type below reads the flags from there, so the arrows stay one way.
 */

type FirstWord<S extends string> = S extends `${infer Word} ${string}` ? Word : S;

/**
 * The long flag of commander's syntax, as the user types it: `-d, --data <json>` → `--data`,
 * `--no-color` → `--no-color`. A syntax that is not a literal is one read back from the
 * definitions table (`COMMANDS`, a command's `FlagSpecs`), so it names a flag that exists.
 */
export type LongFlag<Syntax extends string> = string extends Syntax ? FlagName : LiteralLongFlag<Syntax>;

/** A syntax that is not a literal gives no name here: FlagName is read from literals only. */
type LiteralLongFlag<Syntax extends string> = Syntax extends `${string}--${infer Rest}` ? `--${FirstWord<Rest>}` : never;

/** The long flags of a set of flag specs: a command's `flags`, GLOBAL_FLAGS, the bulk flags. */
export type LongFlags<Specs> = { [K in keyof Specs]: Specs[K] extends { flags: infer S extends string } ? LiteralLongFlag<S> : never }[keyof Specs];

/**
 * What the flags are read from; ./table.ts declares its members: `commands` (every command's
 * definition) and `globals` (GLOBAL_FLAGS).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by ./table.ts through declaration merging
export interface FlagRegistry {}

type Registered<Key extends string> = FlagRegistry extends Record<Key, infer Value> ? Value : never;

/** commander's own flags, which no definition lists. */
export type BuiltinFlag = '--help' | '--version';

/** A flag every command takes (GLOBAL_FLAGS). */
export type GlobalFlag = LongFlags<Registered<'globals'>>;

type CommandFlags<Commands> = { [K in keyof Commands]: Commands[K] extends { flags: infer Specs } ? LongFlags<Specs> : never }[keyof Commands];

/** Every long flag that exists: each command's, the global ones and commander's. */
export type FlagName = BuiltinFlag | GlobalFlag | CommandFlags<Registered<'commands'>>;

/** The flags one command takes (`CommandFlag<typeof definitions.create>`): its own, the global ones and commander's. */
export type CommandFlag<Definition extends { flags: object }> = LongFlags<Definition['flags']> | GlobalFlag | BuiltinFlag;

/** A flag as an error names it: alone, or with the word after it (`--set slot_start`). */
export type FlagField = FlagName | `${FlagName} ${string}`;

/** Flags named together by the word after their dashes (`--delivered-*`): that word begins a flag that exists. */
export type FlagGroup = FlagName extends infer Flag ? (Flag extends `--${infer Word}-${string}` ? `--${Word}-*` : never) : never;

/** An environment variable read when its flag is absent (`PARCELS_TIMEOUT`): errors name it instead of the flag. */
export type VariableName = Uppercase<string>;

/**
 * A word where a flag may be named (an error's field, a word of a hint's command): a literal that
 * looks like a long flag must be one that exists, alone or with its value (`--set weight`,
 * `--limit=5`); other words and values only known at run time (`string`) pass as they are.
 * A parameter typed `CheckedWord<W>` infers `W` from the argument (TypeScript infers through
 * both branches of the condition), then checks it.
 */
export type CheckedWord<W extends string> = string extends W
  ? W
  : W extends FlagField | `${FlagName}=${string}` | '--'
    ? W
    : W extends `--${string}`
      ? FlagName
      : W;

/** The words of a command line, each a CheckedWord. */
export type CheckedWords<Words extends readonly string[]> = { readonly [I in keyof Words]: CheckedWord<Words[I]> };
