/**
 * Every command, defined once: path, arguments, typed flags, summary, examples and a lazy loader.
 * commander's tree (cli.ts), the fast help path (fast-path.ts), the typed options each command's
 * `parse` receives, completions and the command reference all derive from this table. The
 * definitions live in ./definitions/ by area; they hold no command code: loaders import their
 * module only when called, and the fast-path build leaves those imports out (tsup.config.ts).
 * The global flags are defined beside them, in ./definitions/globals.ts. Command modules take
 * their definition's type from their area's file, so nothing they import leads back here.
 */
import type { CommandDefinition } from './definition.js';
import { parcelsCommands } from './definitions/parcels.js';
import { followCommands } from './definitions/follow.js';
import { accountCommands } from './definitions/account.js';
import { profilesCommands } from './definitions/profiles.js';
import { toolsCommands } from './definitions/tools.js';

/** Object spread keeps each area's order: help lists the commands in this order. */
export const definitions = {
  ...parcelsCommands,
  ...followCommands,
  ...accountCommands,
  ...profilesCommands,
  ...toolsCommands,
} as const;

/** The command tree in the order help lists it. */
export const COMMANDS: readonly CommandDefinition[] = Object.values(definitions);
