/**
 * The global flags every command accepts, defined once like a command's flags. commander's options,
 * the top-level and per-command help, completion, docs/commands.md and the typed `GlobalOptions`
 * every command receives (`ctx.globals`) all derive from this list; its order is the order help
 * shows. Plain data, read by the fast path: no heavy imports.
 *
 * `env` names the variable behind a flag. src/config/settings.ts reads those variables, because
 * config.json (the current profile, a profile's base URL, output, timeout, retries) stands between
 * the variable and the built-in default; resolveGlobalOptions therefore reads no environment.
 */
import type { FlagValues, GlobalFlagSpec } from './definition.js';
import { OUTPUT_FORMATS } from '../io/output-format.js';

export const GLOBAL_FLAGS = {
  profile: { type: 'string', flags: '-p, --profile <name>', description: 'profile to use', env: 'PARCELS_PROFILE' },
  baseUrl: { type: 'string', flags: '--base-url <url>', description: 'API base URL', env: 'PARCELS_BASE_URL' },
  output: {
    type: 'choice',
    flags: '-o, --output <format>',
    description: 'table, wide (every field), json, ndjson or csv',
    choices: OUTPUT_FORMATS,
    env: 'PARCELS_OUTPUT',
  },
  json: { type: 'bool', flags: '--json', description: 'short for --output json' },
  fields: { type: 'string', flags: '--fields <list>', description: 'comma-separated fields to show, e.g. entry_id,status' },
  jq: { type: 'string', flags: '--jq <expression>', description: 'filter the JSON output with a jq expression (implies --json; strings print raw)' },
  jqExitStatus: {
    type: 'bool',
    flags: '--jq-exit-status',
    description: "with --jq, exit 12 when the filter's last result is false or null, or there is none (like jq -e)",
  },
  quiet: { type: 'bool', flags: '-q, --quiet', description: 'print only ids, one per line; no success messages' },
  utc: { type: 'bool', flags: '--utc', description: 'show times on a terminal in UTC instead of the local time zone (piped and JSON output is always UTC)' },
  color: { type: 'bool', flags: '--no-color', description: 'no colour (also NO_COLOR=1)' },
  verbose: { type: 'bool', flags: '-v, --verbose', description: 'trace requests and retries to stderr (key redacted)' },
  dryRun: { type: 'bool', flags: '--dry-run', description: 'print the request and a curl equivalent; send nothing' },
  sandbox: {
    type: 'bool',
    flags: '--sandbox',
    description: 'run against the embedded local sandbox (no server, no key needed)',
    conflicts: ['baseUrl'],
  },
  timeout: { type: 'string', flags: '--timeout <seconds>', description: 'per-request timeout', env: 'PARCELS_TIMEOUT', settingDefault: '30' },
  retries: { type: 'string', flags: '--retries <n>', description: 'retries on network errors, 429 and 5xx', env: 'PARCELS_RETRIES', settingDefault: '3' },
} as const satisfies Readonly<Record<string, GlobalFlagSpec>>;

/**
 * The global flags as every command receives them (`ctx.globals`): typed from GLOBAL_FLAGS, with
 * `--json` already folded into `output`. `--timeout`, `--retries` and `--base-url` stay text here:
 * settings checks them with the same rule as their variable and the profile's value.
 */
export type GlobalOptions = FlagValues<typeof GLOBAL_FLAGS>;
