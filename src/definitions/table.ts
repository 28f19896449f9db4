/**
 * Every command, defined once: path, arguments, typed flags, summary and examples, as plain data.
 * commander's tree (cli.ts), the fast help path (fast-path.ts), the typed options each command's
 * `parse` receives, completions and the command reference all derive from this table. The
 * definitions live beside it by area and import no command code: src/commands/loaders.ts names the
 * module that runs each one. The global flags are defined beside them, in ./globals.ts. Command
 * modules take their definition's type from their area's file; nothing here imports a layer above.
 */
import type { CommandDefinition } from './definition.js';
import type { GLOBAL_FLAGS } from './globals.js';
import { parcelsCommands } from './parcels.js';
import { trackCommands } from './track.js';
import { outboxCommands } from './outbox.js';
import { batchesCommands } from './batches.js';
import { accountCommands } from './account.js';
import { apiCommands } from './api.js';
import { profilesCommands } from './profiles.js';
import { toolsCommands } from './tools.js';

/** Object spread keeps each area's order: help lists the commands in this order. */
export const definitions = {
  ...parcelsCommands,
  ...trackCommands,
  ...outboxCommands,
  ...batchesCommands,
  ...accountCommands,
  ...apiCommands,
  ...profilesCommands,
  ...toolsCommands,
} as const;

/** The command tree in the order help lists it. */
export const COMMANDS: readonly CommandDefinition[] = Object.values(definitions);

/** The flags FlagName (./flag-name.ts) is typed from: every command's and the global ones. */
declare module './flag-name.js' {
  interface FlagRegistry {
    commands: typeof definitions;
    globals: typeof GLOBAL_FLAGS;
  }
}
