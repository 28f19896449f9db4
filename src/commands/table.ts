/**
 * Every command, defined once: path, arguments, typed flags, summary, examples and a lazy loader.
 * commander's tree (cli.ts), the fast help path (fast-path.ts), the typed options each command's
 * `parse` receives, completions and the command reference all derive from this table. The
 * definitions live in ./definitions/ by area; they hold no command code: loaders import their
 * module only when called, and the fast-path build leaves those imports out (tsup.config.ts).
 */
import type { CommandDefinition } from './definition.js';
import { parcelsCommands } from './definitions/parcels.js';
import { followCommands } from './definitions/follow.js';
import { accountCommands } from './definitions/account.js';
import { profilesCommands } from './definitions/profiles.js';
import { toolsCommands } from './definitions/tools.js';

export interface OptionDef {
  flags: string;
  description: string;
}

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

export const GLOBAL_OPTIONS: OptionDef[] = [
  { flags: '-p, --profile <name>', description: 'profile to use (env PARCELS_PROFILE)' },
  { flags: '--base-url <url>', description: 'API base URL (env PARCELS_BASE_URL)' },
  { flags: '-o, --output <format>', description: 'table, wide (every field), json, ndjson or csv (env PARCELS_OUTPUT)' },
  { flags: '--json', description: 'short for --output json' },
  { flags: '--fields <list>', description: 'comma-separated fields to show, e.g. entry_id,status' },
  { flags: '--jq <expression>', description: 'filter the JSON output with a jq expression (implies --json; strings print raw)' },
  { flags: '-q, --quiet', description: 'print only ids, one per line; no success messages' },
  { flags: '--utc', description: 'show times in UTC instead of the local time zone' },
  { flags: '--no-color', description: 'no colour (also NO_COLOR=1)' },
  { flags: '-v, --verbose', description: 'trace requests and retries to stderr (key redacted)' },
  { flags: '--dry-run', description: 'print the request and a curl equivalent; send nothing' },
  { flags: '--sandbox', description: 'run against the embedded local sandbox (no server, no key needed)' },
  { flags: '--timeout <seconds>', description: 'per-request timeout (env PARCELS_TIMEOUT, default 30)' },
  { flags: '--retries <n>', description: 'retries on network errors, 429 and 5xx (env PARCELS_RETRIES, default 3)' },
];
