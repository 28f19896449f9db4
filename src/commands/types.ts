import type { Context } from '../context.js';

/** What commander hands a command: its positional arguments and its own flags (globals excluded). */
export interface CommandInput {
  args: string[];
  flags: Record<string, unknown>;
}

/**
 * One command's implementation, loaded only when it runs. `parse` turns flags into a typed options
 * object (and rejects bad input before anything is sent); `run` does the work and knows nothing of
 * commander. Tests call `parse` alone to check flag handling without a server.
 */
export interface CommandModule<Options> {
  parse(input: CommandInput, ctx: Context): Options | Promise<Options>;
  run(options: Options, ctx: Context): Promise<void>;
}

export function defineCommand<Options>(module: CommandModule<Options>): CommandModule<Options> {
  return module;
}
