/**
 * Every command, defined once: path, arguments, typed flags, summary and examples, as plain data.
 * commander's tree (cli.ts), the fast help path (fast-path.ts), the typed options each command's
 * `parse` receives, completions and the command reference all derive from this table. The
 * definitions live beside it, one file per first word (`events add` in ./events.ts), and import no
 * command code: src/commands/loaders.ts names the module that runs each one. The global flags are
 * defined beside them, in ./globals.ts. Command modules take their definition's type from their
 * first word's file; nothing here imports a layer above.
 */
import type { CommandDefinition } from './definition.js';
import { createCommands } from './create.js';
import { getCommands } from './get.js';
import { listCommands } from './list.js';
import { patchCommands } from './patch.js';
import { eventsCommands } from './events.js';
import { attemptsCommands } from './attempts.js';
import type { GLOBAL_FLAGS } from './globals.js';
import { trackCommands } from './track.js';
import { outboxCommands } from './outbox.js';
import { batchesCommands } from './batches.js';
import { validateAddressCommands } from './validate-address.js';
import { usageCommands } from './usage.js';
import { couriersCommands } from './couriers.js';
import { overviewCommands } from './overview.js';
import { referenceCommands } from './reference.js';
import { oracleCommands } from './oracle.js';
import { apiCommands } from './api.js';
import { authCommands } from './auth.js';
import { doctorCommands } from './doctor.js';
import { configCommands } from './config.js';
import { sandboxCommands } from './sandbox.js';
import { completionCommands } from './completion.js';
import { versionCommands } from './version.js';

/** Object spread keeps each file's order: help lists the commands of a section (groups.ts) in this order. */
export const definitions = {
  ...createCommands,
  ...getCommands,
  ...listCommands,
  ...patchCommands,
  ...eventsCommands,
  ...attemptsCommands,
  ...trackCommands,
  ...outboxCommands,
  ...batchesCommands,
  ...validateAddressCommands,
  ...usageCommands,
  ...couriersCommands,
  ...overviewCommands,
  ...referenceCommands,
  ...oracleCommands,
  ...apiCommands,
  ...authCommands,
  ...doctorCommands,
  ...configCommands,
  ...sandboxCommands,
  ...completionCommands,
  ...versionCommands,
} as const;

/** The command tree in the order help lists it. */
export const COMMANDS: readonly CommandDefinition[] = Object.values(definitions);

/** The flags FlagName (src/schemas/flag-name.ts) is typed from: every command's and the global ones. */
declare module '../schemas/flag-name.js' {
  interface FlagRegistry {
    commands: typeof definitions;
    globals: typeof GLOBAL_FLAGS;
  }
}
