/**
 * The command tree as data: names, arguments, flags, summaries and examples. It holds no code, so
 * the fast path (`--version`, `--help`) and completions can read it without loading any command.
 */
export interface OptionDef {
  flags: string;
  description: string;
  /** The flag may be given several times; values collect into an array. */
  repeatable?: boolean;
}

export interface CommandDef {
  path: string[];
  args?: string;
  summary: string;
  options?: OptionDef[];
  examples: string[];
  /** The implementation, `src/commands/<module>.ts`, imported only when the command runs. */
  module: string;
}

const idempotencyKeyOption: OptionDef = {
  flags: '--idempotency-key <key>',
  description: 'Idempotency-Key to send (8-128 bytes); default: a new random key',
};
const dataOption: OptionDef = {
  flags: '-d, --data <json>',
  description: 'request body as JSON, @file.json, or - for stdin (flags override its fields)',
};

/** The command tree, declared once: commander is built from it, and completions walk it. */
export const COMMANDS: CommandDef[] = [
  {
    path: ['create'],
    summary: 'Register a parcel with one of your couriers',
    options: [
      { flags: '--courier <code>', description: 'registered courier code (required)' },
      { flags: '--country <code>', description: 'country code, e.g. NL (required)' },
      { flags: '--postal-code <code>', description: 'postal code, e.g. 1234AB (required)' },
      { flags: '--number <text>', description: 'house number as text (required)' },
      { flags: '--addition <text>', description: 'house-number addition' },
      { flags: '--length <n>', description: 'parcel length (integer)' },
      { flags: '--width <n>', description: 'parcel width (integer)' },
      { flags: '--height <n>', description: 'parcel height (integer)' },
      { flags: '--weight <n>', description: 'parcel weight (integer)' },
      { flags: '--slot-start <time>', description: 'planned slot start: Unix seconds, ISO 8601 or "now"' },
      { flags: '--slot-end <time>', description: 'planned slot end: Unix seconds, ISO 8601 or "now"' },
      { flags: '--service-type <n>', description: 'service code (integer)' },
      dataOption,
      idempotencyKeyOption,
    ],
    examples: [
      'parcels create --courier DEMO-BIKE --country NL --postal-code 1234AB --number 10',
      'parcels create --data @parcel.json --json',
      'echo \'{"courier":"DEMO-VAN","country":"NL","postal_code":"1011AB","number":"1"}\' | parcels create --data - --quiet',
    ],
    module: 'parcels/create',
  },
  {
    path: ['get'],
    args: '<id>',
    summary: 'Show one parcel and remember its ETag for the next patch',
    examples: ['parcels get 3f1c…', 'parcels get 3f1c… --json --fields entry_id,status'],
    module: 'parcels/get',
  },
  {
    path: ['list'],
    summary: 'List parcels, one page or --all',
    options: [
      { flags: '--courier <code>', description: 'only parcels of this courier' },
      { flags: '--status <status>', description: 'only this status: 0-5 or a name (in_transit)' },
      { flags: '--limit <n>', description: 'page size, 1-100 (default 50)' },
      { flags: '--cursor <cursor>', description: 'continue from a next_cursor' },
      { flags: '--all', description: 'follow next_cursor to the end, streaming items' },
    ],
    examples: [
      'parcels list --status in_transit',
      'parcels list --all --output ndjson | jq .entry_id',
      'parcels list --courier DEMO-BIKE --limit 10 --json',
    ],
    module: 'parcels/list',
  },
  {
    path: ['patch'],
    args: '<id>',
    summary: 'Change a parcel (sends If-Match with the cached ETag)',
    options: [
      { flags: '--weight <n>', description: 'new parcel weight (integer)' },
      { flags: '--addition <text>', description: 'new house-number addition' },
      { flags: '--clear <field>', description: 'clear a field: weight, addition, or any field name', repeatable: true },
      { flags: '--set <field=value>', description: 'set any field; value parsed as JSON when it can be', repeatable: true },
      dataOption,
      { flags: '--if-match <etag>', description: 'ETag to send instead of the cached one (quotes included)' },
      { flags: '--refresh', description: 'read the latest ETag first, then patch' },
    ],
    examples: [
      'parcels get 3f1c… && parcels patch 3f1c… --weight 1200',
      'parcels patch 3f1c… --clear weight --refresh',
      'parcels patch 3f1c… --set service_type=2 --addition B',
    ],
    module: 'parcels/patch',
  },
  {
    path: ['events', 'list'],
    args: '<id>',
    summary: "List a parcel's status events (at most 1000)",
    examples: ['parcels events list 3f1c…', 'parcels events list 3f1c… --output ndjson'],
    module: 'events/list',
  },
  {
    path: ['events', 'add'],
    args: '<id>',
    summary: 'Report a status event (status 0-3)',
    options: [
      { flags: '--status <status>', description: 'status 0-3 or its name (default 0 registered)' },
      { flags: '--at <time>', description: 'observation time: Unix seconds, ISO 8601 or "now" (default now)' },
      dataOption,
      idempotencyKeyOption,
    ],
    examples: ['parcels events add 3f1c… --status in_transit', 'parcels events add 3f1c… --status 1 --at 2026-11-22T08:00:00Z'],
    module: 'events/add',
  },
  {
    path: ['attempts', 'list'],
    args: '<id>',
    summary: "List a parcel's delivery attempts",
    examples: ['parcels attempts list 3f1c…'],
    module: 'attempts/list',
  },
  {
    path: ['attempts', 'add'],
    args: '<id>',
    summary: 'Report a delivery attempt (the only way to statuses 4 and 5)',
    options: [
      { flags: '--outcome <outcome>', description: 'outcome 0-4 or name: delivered, failed, delivered_elsewhere, refused, rescheduled' },
      { flags: '--reason <reason>', description: 'reason 0-10 or name, e.g. not_at_home' },
      { flags: '--at <time>', description: 'attempt time: Unix seconds, ISO 8601 or "now" (default now)' },
      { flags: '--delivered-country <code>', description: 'delivered address: country (NL)' },
      { flags: '--delivered-postal-code <code>', description: 'delivered address: postcode 1234AB' },
      { flags: '--delivered-number <text>', description: 'delivered address: house number' },
      { flags: '--delivered-city <text>', description: 'delivered address: city' },
      { flags: '--delivered-street <text>', description: 'delivered address: street' },
      { flags: '--delivered-addition <text>', description: 'delivered address: addition' },
      { flags: '--delivered-location-type <n>', description: 'delivered address: location type 0-6' },
      dataOption,
      idempotencyKeyOption,
    ],
    examples: [
      'parcels attempts add 3f1c… --outcome delivered',
      'parcels attempts add 3f1c… --outcome failed --reason not_at_home',
      'parcels attempts add 3f1c… --outcome delivered_elsewhere --delivered-country NL --delivered-postal-code 1234AB --delivered-number 12',
    ],
    module: 'attempts/add',
  },
  {
    path: ['validate-address'],
    summary: 'Check a Dutch address',
    options: [
      { flags: '--country <code>', description: 'country code (default NL)' },
      { flags: '--postal-code <code>', description: 'postal code' },
      { flags: '--number <text>', description: 'house number' },
      { flags: '--addition <text>', description: 'house-number addition' },
      dataOption,
    ],
    examples: ['parcels validate-address --postal-code 1234AB --number 10'],
    module: 'address/validate',
  },
  {
    path: ['usage', 'daily'],
    summary: 'Daily API usage totals over 30 days',
    examples: ['parcels usage daily', 'parcels usage daily --json'],
    module: 'usage/daily',
  },
  {
    path: ['usage', 'requests'],
    summary: 'The latest 100 API requests within 30 days',
    examples: ['parcels usage requests --output csv'],
    module: 'usage/requests',
  },
  {
    path: ['couriers'],
    summary: "List your organisation's registered couriers",
    examples: ['parcels couriers'],
    module: 'account/couriers',
  },
  {
    path: ['overview'],
    summary: 'Counts within your organisation',
    examples: ['parcels overview --json'],
    module: 'account/overview',
  },
  {
    path: ['reference'],
    summary: 'Status, outcome, reason, location and service codes with their names',
    examples: ['parcels reference', 'parcels reference --json'],
    module: 'reference/show',
  },
  {
    path: ['oracle'],
    args: '<metric>',
    summary: 'Aggregate metrics: activity, planned, or coverage metadata',
    options: [{ flags: '--param <key=value>', description: 'query parameter for the metric', repeatable: true }],
    examples: ['parcels oracle activity', 'parcels oracle planned --param days=7 --json', 'parcels oracle coverage'],
    module: 'oracle/show',
  },
  {
    path: ['auth', 'login'],
    summary: 'Save an API key for a profile (read from a hidden prompt or stdin, never argv)',
    options: [
      { flags: '--with-key-stdin', description: 'read the key from standard input' },
      { flags: '--no-verify', description: 'save without checking the key with a read request' },
    ],
    examples: [
      'parcels auth login --base-url https://api.example.com',
      'printf %s "$KEY" | parcels auth login --profile ci --base-url https://api.example.com --with-key-stdin',
    ],
    module: 'auth/login',
  },
  {
    path: ['auth', 'status'],
    summary: 'Show the active profile, base URL and masked key',
    examples: ['parcels auth status', 'parcels auth status --json'],
    module: 'auth/status',
  },
  {
    path: ['auth', 'logout'],
    summary: "Remove a profile's saved key",
    examples: ['parcels auth logout --profile ci'],
    module: 'auth/logout',
  },
  {
    path: ['config', 'list'],
    summary: 'Show the settings of every profile (keys masked)',
    examples: ['parcels config list'],
    module: 'config/list',
  },
  {
    path: ['config', 'get'],
    args: '<key>',
    summary: 'Print one setting of the profile (output, timeout, retries, base_url)',
    examples: ['parcels config get output'],
    module: 'config/get',
  },
  {
    path: ['config', 'set'],
    args: '<key> <value>',
    summary: 'Change one setting of the profile (output, timeout, retries, base_url)',
    examples: ['parcels config set output json', 'parcels config set timeout 10 --profile ci'],
    module: 'config/set',
  },
  {
    path: ['sandbox', 'serve'],
    summary: 'Run the local sandbox API server',
    options: [
      { flags: '--host <host>', description: 'address to listen on (default 127.0.0.1)' },
      { flags: '--port <port>', description: 'port; 0 picks a free one (default 8787)' },
      { flags: '--db <file>', description: 'SQLite file, or :memory: (default: in the data directory)' },
      { flags: '--seed <file>', description: 'seed JSON: organisations, couriers, keys, rate limits' },
      { flags: '--latency <ms>', description: 'delay every response' },
      { flags: '--fail-rate <p>', description: 'share of requests answered 500/503 before any change' },
      { flags: '--drop-rate <p>', description: 'share of requests committed but cut before the answer' },
      { flags: '--fault-seed <n>', description: 'make injected faults reproducible' },
      { flags: '--clock-offset <seconds>', description: "shift the sandbox's clock" },
      { flags: '--oracle-unavailable', description: 'make the oracle routes answer 503' },
      { flags: '--headers-timeout <ms>', description: 'time to receive request headers (default 20000)' },
      { flags: '--request-timeout <ms>', description: 'time to receive a whole request (default 30000)' },
      { flags: '--keep-alive-timeout <ms>', description: 'idle keep-alive connection lifetime (default 5000)' },
      { flags: '--idle-timeout <ms>', description: 'close a socket silent this long (default 60000)' },
      { flags: '--max-connections <n>', description: 'open connections at most (default 1024)' },
    ],
    examples: ['parcels sandbox serve', 'parcels sandbox serve --port 0 --db :memory: --fail-rate 0.2 --fault-seed 7'],
    module: 'sandbox/serve',
  },
];

export const GLOBAL_OPTIONS: OptionDef[] = [
  { flags: '-p, --profile <name>', description: 'profile to use (env PARCELS_PROFILE)' },
  { flags: '--base-url <url>', description: 'API base URL (env PARCELS_BASE_URL)' },
  { flags: '-o, --output <format>', description: 'table, json, ndjson or csv (env PARCELS_OUTPUT)' },
  { flags: '--json', description: 'short for --output json' },
  { flags: '--fields <list>', description: 'comma-separated fields to show, e.g. entry_id,status' },
  { flags: '-q, --quiet', description: 'print only the essential value (e.g. the new id)' },
  { flags: '--no-color', description: 'no colour (also NO_COLOR=1)' },
  { flags: '-v, --verbose', description: 'trace requests and retries to stderr (key redacted)' },
  { flags: '--dry-run', description: 'print the request and a curl equivalent; send nothing' },
  { flags: '--sandbox', description: 'run against the embedded local sandbox (no server, no key needed)' },
  { flags: '--timeout <seconds>', description: 'per-request timeout (env PARCELS_TIMEOUT, default 30)' },
  { flags: '--retries <n>', description: 'retries on network errors, 429 and 5xx (env PARCELS_RETRIES, default 3)' },
];
