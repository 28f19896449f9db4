/**
 * The shape of one command's definition: plain data (path, arguments, typed flags, examples); the module
 * that runs it is named in ./loaders.ts. Everything about a command that is not its behaviour lives here, so commander's tree,
 * the fast help path, completions and the command reference are all derived from one place, and the
 * options object a command receives is typed from its flags.
 */
import type { FlagSyntax } from '../hint/hint.js';
import type { LongFlag, VariableName } from '../schemas/flag-name.js';

interface FlagBase {
  /** Commander's flag syntax, exactly as shown in help: `-d, --data <json>`, `--all`, `--no-verify`. */
  flags: string;
  description: string;
  /** Other flags (by key) that may not be given together with this one. */
  conflicts?: readonly string[];
  /** Environment variable read when the flag is absent. */
  env?: VariableName;
}

export interface StringFlag extends FlagBase {
  type: 'string';
  default?: string;
  /** Shell completion offers file names after this prefix of the value (`@` for `--data @body.json`); a `<file>` flag needs none. */
  filesAfter?: string;
  required?: boolean;
  /** Required unless one of these flags (by key) is given; the value may still be absent. */
  requiredUnless?: readonly string[];
}
export interface IntFlag extends FlagBase {
  type: 'int';
  default?: number;
  required?: boolean;
  min?: number;
  max?: number;
}
export interface BoolFlag extends FlagBase {
  type: 'bool';
}
/** Given several times, its values collect into an array (empty when absent). */
export interface ListFlag extends FlagBase {
  type: 'list';
}
export interface ChoiceFlag<Choice extends string = string> extends FlagBase {
  type: 'choice';
  choices: readonly Choice[];
  default?: Choice;
  required?: boolean;
}

export type FlagSpec = StringFlag | IntFlag | BoolFlag | ListFlag | ChoiceFlag;
export type FlagSpecs = Readonly<Record<string, FlagSpec>>;

/**
 * A global flag (./globals.ts): a command flag's shape, plus the built-in
 * default src/config/settings.ts falls back to after the variable and the profile (help shows it).
 */
export type GlobalFlagSpec = FlagSpec & { settingDefault?: string };

type FlagType<F extends FlagSpec> = F extends { type: 'int' }
  ? number
  : F extends { type: 'bool' }
    ? boolean
    : F extends { type: 'list' }
      ? string[]
      : F extends { type: 'choice'; choices: readonly (infer C)[] }
        ? C
        : string;

/** Flags that always hold a value: switches, lists, required flags and flags with a default. */
type AlwaysSet<F extends FlagSpec> = F extends { type: 'bool' | 'list' } ? true : F extends { required: true } | { default: unknown } ? true : false;

/** The typed flags a command's `parse` receives, inferred from its definition. */
export type FlagValues<Specs extends FlagSpecs> = {
  [K in keyof Specs as AlwaysSet<Specs[K]> extends true ? K : never]: FlagType<Specs[K]>;
} & {
  [K in keyof Specs as AlwaysSet<Specs[K]> extends true ? never : K]?: FlagType<Specs[K]>;
};

export interface CommandDefinition<Specs extends FlagSpecs = FlagSpecs> {
  path: readonly string[];
  /** Positional arguments in commander's syntax, e.g. `<id>` or `<key> <value>`. */
  args?: string;
  summary: string;
  flags: Specs;
  /**
   * The values a positional argument takes, by its position in `args` (0 = the first): help lists
   * them under the argument's name, completion offers them.
   */
  argValues?: Readonly<Record<number, { name: string; values: Readonly<Record<string, string>> }>>;
  examples: readonly string[];
  /** Paragraphs shown after the examples in --help (rules a flag's line has no room for). */
  notes?: readonly string[];
}

/** Declares a command; the identity function only keeps the flags' literal types for inference. */
export function command<const Specs extends FlagSpecs>(definition: CommandDefinition<Specs>): CommandDefinition<Specs> {
  return definition;
}

/** The long flag of a spec, as the user types it: `--postal-code`, `--no-verify`. */
export function longFlag<const Syntax extends string>(spec: { readonly flags: Syntax }): LongFlag<Syntax> {
  const match = /--[\w-]+/.exec(spec.flags);
  if (match === null) throw new Error(`flag syntax without a long form: ${spec.flags}`);
  return match[0] as LongFlag<Syntax>;
}

/** How a flag is typed, read from its commander syntax: the readers of argv (completion, hints) share it. */
export function flagSyntax(spec: Pick<FlagSpec, 'flags'>): FlagSyntax {
  const short = /^(-\w),/.exec(spec.flags)?.[1];
  return { long: longFlag(spec), ...(short === undefined ? {} : { short }), takesValue: /[<[]/.test(spec.flags) };
}

/** A flag's line in help, completion and docs: its description, then the variable and built-in default behind it. */
export function helpDescription(spec: FlagSpec | GlobalFlagSpec): string {
  const settingDefault = 'settingDefault' in spec ? spec.settingDefault : undefined;
  const notes = [...(spec.env === undefined ? [] : [`env ${spec.env}`]), ...(settingDefault === undefined ? [] : [`default ${settingDefault}`])];
  return notes.length === 0 ? spec.description : `${spec.description} (${notes.join(', ')})`;
}

