import type { GlobalFlagSpec } from './commands/definition.js';
import { helpDescription } from './commands/definition.js';

/** Help topics beyond commander's per-command help: `parcels help exit-codes`, `parcels help environment`. */
const TOPICS: Record<string, string> = {
  'exit-codes': `Exit codes (stable; scripts may rely on them):

  0    success
  1    unexpected failure (a bug, or an error with no better code)
  2    invalid usage or input rejected before sending: nothing was sent
  3    authentication or permission: 401 (invalid or expired key), 403 (missing scope or verification),
       or no API key for the profile (nothing was sent)
  4    not found: 404
  5    conflict or stale precondition: 409 (Idempotency-Key reused with another body), 412 (stale or missing If-Match)
  6    rejected by the service's validation: 400, 422, and any other 4xx
  7    rate limited: 429 still answered after all retries
  8    service unavailable: 5xx or a network failure after all retries
  9    the sandbox (--sandbox, sandbox serve) cannot run: better-sqlite3, an optional dependency,
       is not installed or its native addon does not load; the error names the command to install it
  10   validate-address --exit-status: the service says the address is not valid
  11   not delivered: \`track --watch --fail-on-attempt\` saw an attempt that did not deliver the parcel
  75   queued, not sent yet: --queue kept the request in the outbox (\`parcels outbox flush\` sends it)
  130  interrupted (Ctrl-C, SIGINT)
  143  terminated (SIGTERM)

With --output json (or --json), errors are one JSON line on stderr:
  {"error":{"status":422,"code":"validation_failed","message":"…","exit_code":6}}
`,
  environment: `Environment variables:

  PARCELS_PROFILE      profile to use (flag --profile wins)
  PARCELS_BASE_URL     API base URL (flag --base-url wins)
  PARCELS_API_KEY      API key; overrides the profile's saved key (there is never a flag for the key)
  PARCELS_OUTPUT       default output: table, json, ndjson or csv (flag --output/--json wins)
  PARCELS_TIMEOUT      per-request timeout in seconds (flag --timeout wins)
  PARCELS_RETRIES      retries on network errors, 429 and 5xx (flag --retries wins)
  PARCELS_CONFIG_DIR   directory for config.json (mode 0600), the ETag cache and the --sandbox database
  PARCELS_SANDBOX_ADMIN_TOKEN  admin token of the sandbox's admin route (parcels sandbox clock, simulate, logs)
  PARCELS_TRUST_CLOCK_SKEW     1: correct times by a clock skew over 1 h too (two agreeing answers; see the README)
  NO_COLOR             any non-empty value turns colour off (as does --no-color)
  FORCE_COLOR          1 forces colour on, 0 forces it off

Precedence: flag > environment > profile (config.json) > built-in default.
`,
};

export function helpTopic(name: string): string | undefined {
  return TOPICS[name];
}

/**
 * `parcels help WORD…` for a command or a group (`help events add`, `help events`): the argv that
 * shows its help (`events add --help`), so both print the same text. Anything else is an unknown
 * topic: the message lists what help knows (exit 2).
 */
export function helpFor(words: readonly string[], commands: readonly HelpCommand[]): { argv: string[] } | { unknown: string } {
  const known = (path: readonly string[]) => path.length === words.length && path.every((word, i) => word === words[i]);
  if (commands.some((c) => known(c.path) || known(c.path.slice(0, -1)))) return { argv: [...words, '--help'] };
  const names = commands.map((c) => c.path.join(' '));
  return {
    unknown:
      `error: unknown help topic '${words.join(' ')}'\n` +
      `Topics: ${Object.keys(TOPICS).join(', ')}\n` +
      `Commands: ${names.join(', ')}\n`,
  };
}

interface HelpCommand {
  path: readonly string[];
  args?: string;
  summary: string;
  flags: Readonly<Record<string, unknown>>;
}

/**
 * The top-level help, rendered straight from the command table. `parcels --help` is the command
 * people run most while learning the tool, so it is printed without loading commander at all;
 * commander's own top-level help is pointed at this same text so the two never differ.
 */
export function topLevelHelp(commands: readonly HelpCommand[], globals: readonly GlobalFlagSpec[], version: string): string {
  const options: [string, string][] = [
    ['-V, --version', `print the version (${version})`],
    ...globals.map((spec): [string, string] => [spec.flags, helpDescription(spec)]),
    ['-h, --help', 'show help for a command'],
  ];
  const rows: [string, string][] = commands.map((c) => [
    [...c.path, ...(c.args ? [c.args] : []), ...(Object.keys(c.flags).length > 0 ? ['[options]'] : [])].join(' '),
    c.summary,
  ]);
  rows.push(['help [command|topic]', 'help for a command, or a topic: exit-codes, environment']);
  const width = Math.max(...[...options, ...rows].map(([left]) => left.length)) + 2;
  const lines = (pairs: [string, string][]) => pairs.map(([left, right]) => `  ${left.padEnd(width)}${right}`).join('\n');
  return [
    'Usage: parcels [options] [command]',
    '',
    'Track parcels with the Parcel Delivery Tracking API',
    '',
    'Options:',
    lines(options),
    '',
    'Commands:',
    lines(rows),
    '',
    'Examples:',
    '  parcels --sandbox create --courier DEMO-BIKE --country NL --postal-code 1234AB --number 10',
    '  parcels --sandbox list --status registered',
    '  parcels auth login --base-url https://api.example.com',
    '  parcels list --all --output ndjson | jq -r .entry_id',
    '',
    'More help: parcels help <command> (e.g. parcels help events add) | parcels help exit-codes | parcels help environment',
    '',
  ].join('\n');
}
