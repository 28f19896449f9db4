import type { Context } from '../context.js';
import type { CommandDefinition, FlagSpecs, FlagValues } from '../definitions/definition.js';

/** What a command's `parse` receives: its positional arguments and its own flags, typed from its definition. */
export interface CommandInput<Specs extends FlagSpecs = FlagSpecs> {
  args: string[];
  flags: FlagValues<Specs>;
}

/** The flag specs of a definition (`typeof createCommands.create`). */
export type SpecsOf<Def> = Def extends CommandDefinition<infer Specs> ? Specs : never;

/**
 * One command's implementation, loaded only when it runs. `parse` turns the typed flags into an
 * options object (and rejects bad input before anything is sent); `run` does the work and knows
 * nothing of commander. Tests call `parse` alone to check flag handling without a server.
 */
export interface CommandModule<Def extends CommandDefinition, Options> {
  parse(input: CommandInput<SpecsOf<Def>>, ctx: Context): Options | Promise<Options>;
  run(options: Options, ctx: Context): Promise<void>;
}

/** Ties an implementation to its definition: `defineCommand<typeof getCommands.get, GetOptions>({ parse, run })`. */
export function defineCommand<Def extends CommandDefinition, Options>(module: CommandModule<Def, Options>): CommandModule<Def, Options> {
  return module;
}
