import type { CommandDefinition, GlobalFlagSpec } from './definitions/definition.js';
import { helpDescription } from './definitions/definition.js';
import { HELP_SECTIONS, groupDescription } from './definitions/groups.js';
import { wrapWords } from './io/wrap.js';

/** Help topics beyond commander's per-command help: `parcels help exit-codes`, `parcels help environment`. */
const TOPICS: Record<string, string> = {
  environment: `Environment variables:

  PARCELS_PROFILE      profile to use (flag --profile wins)
  PARCELS_BASE_URL     API base URL (flag --base-url wins)
  PARCELS_API_KEY      API key; overrides the profile's saved key (there is never a flag for the key)
  PARCELS_OUTPUT       default output: table, json, ndjson or csv (flag --output/--json wins)
  PARCELS_TIMEOUT      per-request timeout in seconds (flag --timeout wins)
  PARCELS_RETRIES      retries on network errors, 429 and 5xx (flag --retries wins)
  PARCELS_BULK_MATCHED_LINES  create --from: refuse, skip or create lines matching earlier batches (flags --skip-created/--create-again win)
  PARCELS_QUEUE_WRITES yes: create, events add and attempts add keep a request the service cannot take in the outbox, as --queue does (flag --no-queue wins)
  PARCELS_CONFIG_DIR   directory for config.json (mode 0600), the ETag cache and the --sandbox database
  PARCELS_SANDBOX_ADMIN_TOKEN  admin token of the sandbox's admin route (parcels sandbox clock, simulate, logs, faults)
  PARCELS_TRUST_CLOCK_SKEW     1: correct times by a clock skew over 1 h too (two agreeing answers; see the README)
  NO_COLOR             any non-empty value turns colour off (as does --no-color)
  FORCE_COLOR          1 forces colour on, 0 forces it off

Precedence: flag > environment > profile (config.json) > built-in default.
`,
};

/** The exit codes, each with what it means: `help exit-codes` wraps the meanings to the terminal. */
const EXIT_CODES: readonly [string, string][] = [
  ['0', 'success'],
  ['1', 'unexpected failure (a bug, or an error with no better code)'],
  ['2', 'invalid usage or input rejected before sending: nothing was sent'],
  ['3', 'authentication or permission: 401 (invalid or expired key), 403 (missing scope or verification), or no API key for the profile (nothing was sent)'],
  ['4', 'not found: 404'],
  ['5', 'conflict or stale precondition: 409 (Idempotency-Key reused with another body), 412 (stale or missing If-Match)'],
  ['6', "rejected by the service's validation: 400, 422, and any other 4xx"],
  ['7', 'rate limited: 429 still answered after all retries'],
  ['8', 'service unavailable: 5xx or a network failure after all retries'],
  ['9', 'the sandbox (--sandbox, sandbox serve) cannot run: better-sqlite3, an optional dependency, is not installed or its native addon does not load; the error names the command to install it'],
  ['10', 'validate-address --exit-status: the service says the address is not valid'],
  ['11', 'not delivered: `track --watch --fail-on-attempt` saw an attempt that did not deliver the parcel'],
  ['12', "--jq-exit-status: the --jq filter's last result was false or null, or it gave none (as jq -e decides)"],
  ['75', 'queued, not sent yet: --queue kept the request in the outbox (`parcels outbox flush` sends it)'],
  ['130', 'interrupted (Ctrl-C, SIGINT)'],
  ['143', 'terminated (SIGTERM)'],
];

function exitCodesHelp(width: number): string {
  return [
    ...wrapWords('Exit codes (stable; scripts may rely on them):', width),
    '',
    twoColumns(EXIT_CODES, 5, width),
    '',
    ...wrapWords('With --output json (or --json), errors are one JSON line on stderr:', width),
    // An example to copy: never broken.
    '  {"error":{"status":422,"code":"validation_failed","message":"…","exit_code":6}}',
    '',
  ].join('\n');
}

/** A help topic, wrapped to `columns` (80 when piped) like the top-level help; undefined for an unknown name. */
export function helpTopic(name: string, columns: number = DEFAULT_WIDTH): string | undefined {
  if (name === 'exit-codes') return exitCodesHelp(Math.max(MIN_WIDTH, columns));
  return TOPICS[name];
}

/**
 * `parcels help WORD…` for a command or a group (`help events add`, `help events`): the argv that
 * shows its help (`events add --help`), so both print the same text. Anything else is an unknown
 * topic: the message lists what help knows (exit 2).
 */
export function helpFor(
  words: readonly string[],
  commands: readonly HelpCommand[],
): { argv: string[] } | { unknown: { message: string; topics: string[]; commands: string[] } } {
  const known = (path: readonly string[]) => path.length === words.length && path.every((word, i) => word === words[i]);
  if (commands.some((c) => known(c.path) || known(c.path.slice(0, -1)))) return { argv: [...words, '--help'] };
  return {
    unknown: {
      message: `unknown help topic '${words.join(' ')}'`,
      topics: ['exit-codes', ...Object.keys(TOPICS)],
      commands: commands.map((c) => c.path.join(' ')),
    },
  };
}

interface HelpCommand {
  path: readonly string[];
  args?: string;
  summary: string;
  flags: Readonly<Record<string, unknown>>;
}

/** The heading of the flags every command takes, last in every help (gh's "inherited flags"). */
export const GLOBAL_OPTIONS_TITLE = 'Global options';

/**
 * A commander help text with its sections in the house order: usage and description, the
 * subcommands, the command's arguments and options, then the global options (renamed from
 * commander's "Global Options"). Sections are the blocks commander starts with a heading line.
 */
export function commandsFirst(text: string): string {
  const blocks = text.split(/\n(?=[A-Z][A-Za-z ]*:\n)/);
  const [head = '', ...sections] = blocks;
  const rank = (block: string): number => (block.startsWith('Commands:') ? 0 : block.startsWith('Global Options:') ? 2 : 1);
  const ordered = sections
    .map((block, index) => ({ block, index }))
    .sort((a, b) => rank(a.block) - rank(b.block) || a.index - b.index)
    .map(({ block }) => block.replace(/^Global Options:/, `${GLOBAL_OPTIONS_TITLE}:`).replace(/\n*$/, '\n'));
  return [head.replace(/\n*$/, '\n'), ...ordered].join('\n');
}

/** Help never wraps narrower than this, whatever the terminal says. */
const MIN_WIDTH = 40;
/** Piped, or a width the terminal does not give: the classic 80 columns. */
const DEFAULT_WIDTH = 80;
/** A description column narrower than this goes on its own line under its name. */
const MIN_DESCRIPTION = 24;

/** Two columns, the right one wrapped to the width; too narrow for both: the description under its name. */
function twoColumns(pairs: readonly [string, string][], left: number, width: number): string {
  const room = width - 2 - left;
  return pairs
    .map(([name, description]) => {
      if (room < MIN_DESCRIPTION) return [`  ${name}`, ...wrapWords(description, width - 6).map((l) => `      ${l}`)].join('\n');
      const indent = ' '.repeat(left + 2);
      const wrapped = wrapWords(description, room);
      // A name wider than its column: the description starts on the next line, in its column.
      if (name.length + 2 > left) return [`  ${name}`, ...wrapped.map((l) => `${indent}${l}`)].join('\n');
      const [first = '', ...rest] = wrapped;
      return [`  ${name.padEnd(left)}${first}`, ...rest.map((l) => `${indent}${l}`)].join('\n');
    })
    .join('\n');
}

/** The help sections listing the values of a command's positional arguments (empty when it has none), wrapped to the width. */
export function argValuesHelp(def: Pick<CommandDefinition, 'argValues'>, columns: number = DEFAULT_WIDTH): string {
  const width = Math.max(MIN_WIDTH, columns);
  return Object.values(def.argValues ?? {})
    .map(({ name, values }) => {
      const left = Math.min(Math.max(...Object.keys(values).map((v) => v.length)) + 2, Math.floor(width / 2));
      return `\n${name}:\n${twoColumns(Object.entries(values), left, width)}\n`;
    })
    .join('');
}

/**
 * The top-level help, rendered straight from the command table: the commands in sections, the
 * groups with their own descriptions, wrapped to the terminal's width. `parcels --help` is the
 * command people run most while learning the tool, so it is printed without loading commander at
 * all; commander's own top-level help is pointed at this same text so the two never differ.
 */
export function topLevelHelp(commands: readonly HelpCommand[], globals: readonly GlobalFlagSpec[], version: string, columns: number = DEFAULT_WIDTH): string {
  const width = Math.max(MIN_WIDTH, columns);
  const options: [string, string][] = [
    ['-V, --version', `print the version (${version})`],
    ...globals.map((spec): [string, string] => [spec.flags, helpDescription(spec)]),
    ['-h, --help', 'show help for a command'],
  ];
  const usage = (c: HelpCommand): string => [...c.path, ...(c.args ? [c.args] : []), ...(Object.keys(c.flags).length > 0 ? ['[options]'] : [])].join(' ');
  const sections = HELP_SECTIONS.map(({ title, first }) => {
    const rows: [string, string][] = [];
    for (const c of commands.filter((command) => first.includes(command.path[0] as string))) {
      const group = c.path[0] as string;
      // A group that is no command of its own gets one line, before its commands.
      if (c.path.length > 1 && !commands.some((other) => other.path.length === 1 && other.path[0] === group) && !rows.some(([name]) => name === `${group} <command>`)) {
        rows.push([`${group} <command>`, groupDescription(group)]);
      }
      rows.push([usage(c), c.summary]);
    }
    return { title, rows };
  });
  const help: [string, string] = ['help [command|topic]', 'help for a command, or a topic: exit-codes, environment'];
  const all = [...options, ...sections.flatMap((s) => s.rows), help];
  const left = Math.min(Math.max(...all.map(([name]) => name.length)) + 2, Math.floor(width / 2));
  const examples = [
    'parcels --sandbox create --courier DEMO-BIKE --country NL --postal-code 1234AB --number 10',
    'parcels --sandbox list --status registered',
    'parcels auth login --base-url https://api.example.com',
    'parcels list --all --output ndjson | jq -r .entry_id',
  ];
  return [
    'Usage: parcels [options] [command]',
    '',
    'Track parcels with the Parcel Delivery Tracking API',
    '',
    ...sections.flatMap(({ title, rows }) => [`${title}:`, twoColumns(rows, left, width), '']),
    'Help:',
    twoColumns([help], left, width),
    '',
    // As gh and kubectl do: the commands first, the flags every command takes after them.
    `${GLOBAL_OPTIONS_TITLE}:`,
    twoColumns(options, left, width),
    '',
    'Examples:',
    ...examples.map((e) => `  ${e}`),
    '',
    ...wrapWords('More help: parcels help <command> (e.g. parcels help events add) | parcels help exit-codes | parcels help environment', width),
    '',
  ].join('\n');
}
