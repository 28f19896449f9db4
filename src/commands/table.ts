// Over 300 lines on purpose: the whole command tree as one table of plain data is easier to review than 24 small files.
/**
 * Every command, defined once: path, arguments, typed flags, summary, examples and a lazy loader.
 * commander's tree (cli.ts), the fast help path (fast-path.ts), the typed options each command's
 * `parse` receives, and later completions and the command reference all derive from this table.
 * It holds no command code: loaders import their module only when called, and the fast-path build
 * leaves those imports out (tsup.config.ts).
 */
import type { CommandDefinition, FlagSpec } from './definition.js';
import { command } from './definition.js';

/** A loader's declared type: annotated so the table's type never depends on the modules that import it. */
type Loaded = Promise<{ default: unknown }>;

export interface OptionDef {
  flags: string;
  description: string;
}

const idempotencyKey = {
  type: 'string',
  flags: '--idempotency-key <key>',
  description: 'Idempotency-Key to send (8-128 bytes); default: a new random key',
} as const satisfies FlagSpec;
const data = {
  type: 'string',
  flags: '-d, --data <json>',
  description: 'request body as JSON, @file.json, or - for stdin (flags override its fields)',
} as const satisfies FlagSpec;

/** Bulk runs (`--from`) and the offline outbox (`--queue`, `--offline`): shared by create, events add and attempts add. */
const bulk = {
  from: {
    type: 'string',
    flags: '--from <file>',
    description: 'one request per line of an NDJSON or CSV file, or - for stdin; flags override each line',
    conflicts: ['data', 'idempotencyKey'],
  },
  format: { type: 'choice', flags: '--format <format>', description: 'input format with --from (default: from the extension)', choices: ['ndjson', 'csv'] },
  concurrency: { type: 'int', flags: '--concurrency <n>', description: 'requests in flight with --from (default 8)', min: 1, max: 64 },
  rate: { type: 'string', flags: '--rate <n/s>', description: 'at most this many requests per second with --from, e.g. 50/s' },
  batchId: { type: 'string', flags: '--batch-id <id>', description: 'batch identity with --from (default: a hash of the whole input)' },
  queue: {
    type: 'bool',
    flags: '--queue',
    description: 'if the service cannot be reached, keep the request in the outbox (exit 75)',
    conflicts: ['from'],
  },
  offline: { type: 'bool', flags: '--offline', description: 'put the request in the outbox without trying to send it (exit 75)', conflicts: ['from'] },
} as const satisfies Record<string, FlagSpec>;

export const definitions = {
  create: command({
    path: ['create'],
    summary: 'Register a parcel with one of your couriers',
    flags: {
      courier: { type: 'string', flags: '--courier <code>', description: 'registered courier code (required)' },
      country: { type: 'string', flags: '--country <code>', description: 'country code, e.g. NL (required)' },
      postalCode: { type: 'string', flags: '--postal-code <code>', description: 'postal code, e.g. 1234AB (required)' },
      number: { type: 'string', flags: '--number <text>', description: 'house number as text (required)' },
      addition: { type: 'string', flags: '--addition <text>', description: 'house-number addition' },
      length: { type: 'int', flags: '--length <n>', description: 'parcel length (integer)' },
      width: { type: 'int', flags: '--width <n>', description: 'parcel width (integer)' },
      height: { type: 'int', flags: '--height <n>', description: 'parcel height (integer)' },
      weight: { type: 'int', flags: '--weight <n>', description: 'parcel weight (integer)' },
      slotStart: { type: 'string', flags: '--slot-start <time>', description: 'planned slot start: Unix seconds, ISO 8601 or "now"' },
      slotEnd: { type: 'string', flags: '--slot-end <time>', description: 'planned slot end: Unix seconds, ISO 8601 or "now"' },
      serviceType: { type: 'int', flags: '--service-type <n>', description: 'service code (integer)' },
      data,
      idempotencyKey,
      ...bulk,
    },
    examples: [
      'parcels create --courier DEMO-BIKE --country NL --postal-code 1234AB --number 10',
      'parcels create --data @parcel.json --json',
      'echo \'{"courier":"DEMO-VAN","country":"NL","postal_code":"1011AB","number":"1"}\' | parcels create --data - --quiet',
      'parcels create --from parcels.csv --concurrency 32 > results.ndjson',
      'parcels create --queue --courier DEMO-BIKE --country NL --postal-code 1234AB --number 10 --quiet',
    ],
    load: (): Loaded => import('./parcels/create.js'),
  }),
  get: command({
    path: ['get'],
    args: '<id>',
    summary: 'Show one parcel and remember its ETag for the next patch',
    flags: {},
    examples: ['parcels get 3f1c…', 'parcels get 3f1c… --json --fields entry_id,status'],
    load: (): Loaded => import('./parcels/get.js'),
  }),
  list: command({
    path: ['list'],
    summary: 'List parcels, one page or --all',
    flags: {
      courier: { type: 'string', flags: '--courier <code>', description: 'only parcels of this courier' },
      status: { type: 'string', flags: '--status <status>', description: 'only this status: 0-5 or a name (in_transit)' },
      limit: { type: 'string', flags: '--limit <n>', description: 'page size, 1-100 (default 50)' },
      cursor: { type: 'string', flags: '--cursor <cursor>', description: 'continue from a next_cursor' },
      all: { type: 'bool', flags: '--all', description: 'follow next_cursor to the end, streaming items' },
    },
    examples: [
      'parcels list --status in_transit',
      'parcels list --all --output ndjson | jq .entry_id',
      'parcels list --courier DEMO-BIKE --limit 10 --json',
    ],
    load: (): Loaded => import('./parcels/list.js'),
  }),
  patch: command({
    path: ['patch'],
    args: '<id>',
    summary: 'Change a parcel (sends If-Match with the cached ETag)',
    flags: {
      weight: { type: 'int', flags: '--weight <n>', description: 'new parcel weight (integer)' },
      addition: { type: 'string', flags: '--addition <text>', description: 'new house-number addition' },
      clear: { type: 'list', flags: '--clear <field>', description: 'clear a field: weight, addition, or any field name' },
      set: { type: 'list', flags: '--set <field=value>', description: 'set any field; value parsed as JSON when it can be' },
      data,
      ifMatch: {
        type: 'string',
        flags: '--if-match <etag>',
        description: 'ETag to send instead of the cached one (quotes included)',
        conflicts: ['refresh'],
      },
      refresh: { type: 'bool', flags: '--refresh', description: 'read the latest ETag first, then patch' },
    },
    examples: [
      'parcels get 3f1c… && parcels patch 3f1c… --weight 1200',
      'parcels patch 3f1c… --clear weight --refresh',
      'parcels patch 3f1c… --set service_type=2 --addition B',
    ],
    load: (): Loaded => import('./parcels/patch.js'),
  }),
  eventsList: command({
    path: ['events', 'list'],
    args: '<id>',
    summary: "List a parcel's status events (at most 1000)",
    flags: {},
    examples: ['parcels events list 3f1c…', 'parcels events list 3f1c… --output ndjson'],
    load: (): Loaded => import('./events/list.js'),
  }),
  eventsAdd: command({
    path: ['events', 'add'],
    args: '[id]',
    summary: 'Report a status event (status 0-3)',
    flags: {
      status: { type: 'string', flags: '--status <status>', description: 'status 0-3 or its name (default 0 registered)' },
      at: { type: 'string', flags: '--at <time>', description: 'observation time: Unix seconds, ISO 8601 or "now" (default now)' },
      data,
      idempotencyKey,
      ...bulk,
    },
    examples: [
      'parcels events add 3f1c… --status in_transit',
      'parcels events add 3f1c… --status 1 --at 2026-11-22T08:00:00Z',
      'parcels list --status 2 -o ndjson | parcels events add --from - --status in_delivery',
      'parcels events add 3f1c… --status in_delivery --queue',
    ],
    load: (): Loaded => import('./events/add.js'),
  }),
  attemptsList: command({
    path: ['attempts', 'list'],
    args: '<id>',
    summary: "List a parcel's delivery attempts",
    flags: {},
    examples: ['parcels attempts list 3f1c…'],
    load: (): Loaded => import('./attempts/list.js'),
  }),
  attemptsAdd: command({
    path: ['attempts', 'add'],
    args: '[id]',
    summary: 'Report a delivery attempt (the only way to statuses 4 and 5)',
    flags: {
      outcome: {
        type: 'string',
        flags: '--outcome <outcome>',
        description: 'outcome 0-4 or name: delivered, failed, delivered_elsewhere, refused, rescheduled',
      },
      reason: { type: 'string', flags: '--reason <reason>', description: 'reason 0-10 or name, e.g. not_at_home' },
      at: { type: 'string', flags: '--at <time>', description: 'attempt time: Unix seconds, ISO 8601 or "now" (default now)' },
      deliveredCountry: { type: 'string', flags: '--delivered-country <code>', description: 'delivered address: country (NL)' },
      deliveredPostalCode: { type: 'string', flags: '--delivered-postal-code <code>', description: 'delivered address: postcode 1234AB' },
      deliveredNumber: { type: 'string', flags: '--delivered-number <text>', description: 'delivered address: house number' },
      deliveredCity: { type: 'string', flags: '--delivered-city <text>', description: 'delivered address: city' },
      deliveredStreet: { type: 'string', flags: '--delivered-street <text>', description: 'delivered address: street' },
      deliveredAddition: { type: 'string', flags: '--delivered-addition <text>', description: 'delivered address: addition' },
      deliveredLocationType: { type: 'int', flags: '--delivered-location-type <n>', description: 'delivered address: location type 0-6' },
      data,
      idempotencyKey,
      ...bulk,
    },
    examples: [
      'parcels attempts add --from attempts.ndjson --outcome delivered',
      'parcels attempts add 3f1c… --outcome delivered',
      'parcels attempts add 3f1c… --outcome failed --reason not_at_home',
      'parcels attempts add 3f1c… --outcome delivered_elsewhere --delivered-country NL --delivered-postal-code 1234AB --delivered-number 12',
    ],
    load: (): Loaded => import('./attempts/add.js'),
  }),
  outbox: command({
    path: ['outbox'],
    summary: 'List the requests --queue kept for later (age, command, parcel)',
    flags: {},
    examples: ['parcels outbox', 'parcels outbox --json'],
    load: (): Loaded => import('./outbox/list.js'),
  }),
  outboxFlush: command({
    path: ['outbox', 'flush'],
    summary: 'Send what the outbox holds, in capture order, with the same keys and bytes',
    flags: {},
    examples: ['parcels outbox flush', 'parcels outbox flush --retries 3 > delivered.ndjson'],
    load: (): Loaded => import('./outbox/flush.js'),
  }),
  batches: command({
    path: ['batches'],
    summary: 'List the journals of bulk runs (batch, input, counts, age)',
    flags: {},
    examples: ['parcels batches', 'parcels batches --json'],
    load: (): Loaded => import('./batches/list.js'),
  }),
  batchesPrune: command({
    path: ['batches', 'prune'],
    summary: 'Remove journals of bulk runs not written for a while',
    flags: {
      olderThan: { type: 'string', flags: '--older-than <age>', description: 'e.g. 7d, 12h, 30m (required)', required: true },
    },
    examples: ['parcels batches prune --older-than 7d'],
    load: (): Loaded => import('./batches/prune.js'),
  }),
  validateAddress: command({
    path: ['validate-address'],
    summary: 'Check a Dutch address',
    flags: {
      country: { type: 'string', flags: '--country <code>', description: 'country code (default NL)' },
      postalCode: { type: 'string', flags: '--postal-code <code>', description: 'postal code', requiredUnless: ['data'] },
      number: { type: 'string', flags: '--number <text>', description: 'house number' },
      addition: { type: 'string', flags: '--addition <text>', description: 'house-number addition' },
      data,
    },
    examples: ['parcels validate-address --postal-code 1234AB --number 10'],
    load: (): Loaded => import('./address/validate.js'),
  }),
  usage: command({
    path: ['usage'],
    summary: 'Daily API usage totals over 30 days (same as usage daily)',
    flags: {},
    examples: ['parcels usage', 'parcels usage --json'],
    load: (): Loaded => import('./usage/daily.js'),
  }),
  usageDaily: command({
    path: ['usage', 'daily'],
    summary: 'Daily API usage totals over 30 days',
    flags: {},
    examples: ['parcels usage daily', 'parcels usage daily --json'],
    load: (): Loaded => import('./usage/daily.js'),
  }),
  usageRequests: command({
    path: ['usage', 'requests'],
    summary: 'The latest 100 API requests within 30 days',
    flags: {},
    examples: ['parcels usage requests --output csv'],
    load: (): Loaded => import('./usage/requests.js'),
  }),
  couriers: command({
    path: ['couriers'],
    summary: "List your organisation's registered couriers",
    flags: {},
    examples: ['parcels couriers'],
    load: (): Loaded => import('./account/couriers.js'),
  }),
  overview: command({
    path: ['overview'],
    summary: 'Counts within your organisation',
    flags: {},
    examples: ['parcels overview --json'],
    load: (): Loaded => import('./account/overview.js'),
  }),
  reference: command({
    path: ['reference'],
    summary: 'Status, outcome, reason, location and service codes with their names',
    flags: {},
    examples: ['parcels reference', 'parcels reference --json'],
    load: (): Loaded => import('./reference/show.js'),
  }),
  oracle: command({
    path: ['oracle'],
    args: '<metric>',
    summary: 'Aggregate metrics: activity, planned, or coverage metadata',
    flags: { param: { type: 'list', flags: '--param <key=value>', description: 'query parameter for the metric' } },
    examples: ['parcels oracle activity', 'parcels oracle planned --param days=7 --json', 'parcels oracle coverage'],
    load: (): Loaded => import('./oracle/show.js'),
  }),
  api: command({
    path: ['api'],
    args: '<method> <path>',
    summary: "Send any request to the service with the profile's base URL and key (like gh api)",
    flags: {
      data: { type: 'string', flags: '-d, --data <json>', description: 'request body as JSON, @file.json, or - for stdin' },
      field: {
        type: 'list',
        flags: '-F, --field <key=value>',
        description: 'a body field (query parameter for GET/HEAD/DELETE), typed: numbers, true, false, null, @file',
      },
      rawField: { type: 'list', flags: '-f, --raw-field <key=value>', description: 'a body field (or query parameter) as a string' },
      header: { type: 'list', flags: '-H, --header <name:value>', description: 'an extra request header (never Authorization)' },
      query: { type: 'list', flags: '--query <key=value>', description: 'a query parameter' },
      include: { type: 'bool', flags: '-i, --include', description: 'print the status line and response headers before the body' },
      paginate: {
        type: 'bool',
        flags: '--paginate',
        description: 'GET every page, following next_cursor, and stream the items (NDJSON)',
        conflicts: ['include'],
      },
      idempotencyKey,
    },
    examples: [
      'parcels api GET /deliveries/v1/parcels --query limit=5',
      'parcels api POST /deliveries/v1/parcels -f courier=DEMO-BIKE -f country=NL -f postal_code=1234AB -f number=10',
      'parcels api PATCH /deliveries/v1/parcels/3f1c… -F parcel_weight=1200 -H \'If-Match: "etag"\'',
      "parcels api GET /deliveries/v1/parcels --paginate --jq .entry_id",
    ],
    load: (): Loaded => import('./api/request.js'),
  }),
  authLogin: command({
    path: ['auth', 'login'],
    summary: 'Save an API key for a profile (read from a hidden prompt or stdin, never argv)',
    flags: {
      withKeyStdin: { type: 'bool', flags: '--with-key-stdin', description: 'read the key from standard input' },
      verify: { type: 'bool', flags: '--no-verify', description: 'save without checking the key with a read request' },
      insecure: { type: 'bool', flags: '--insecure', description: 'allow a plain http:// base URL that is not this machine (the key travels unencrypted)' },
    },
    examples: [
      'parcels auth login --base-url https://api.example.com',
      'printf %s "$KEY" | parcels auth login --profile ci --base-url https://api.example.com --with-key-stdin',
    ],
    load: (): Loaded => import('./auth/login.js'),
  }),
  authStatus: command({
    path: ['auth', 'status'],
    summary: 'Show the active profile, base URL and masked key',
    flags: {},
    examples: ['parcels auth status', 'parcels auth status --json'],
    load: (): Loaded => import('./auth/status.js'),
  }),
  authToken: command({
    path: ['auth', 'token'],
    summary: "Print the profile's API key, for PARCELS_API_KEY=$(parcels auth token)",
    flags: { show: { type: 'bool', flags: '--show', description: 'print the key even when stdout is a terminal' } },
    examples: ['parcels auth token --show', 'parcels auth token --profile ci | gh secret set PARCELS_API_KEY'],
    load: (): Loaded => import('./auth/token.js'),
  }),
  authLogout: command({
    path: ['auth', 'logout'],
    summary: "Remove a profile's saved key",
    flags: {},
    examples: ['parcels auth logout --profile ci'],
    load: (): Loaded => import('./auth/logout.js'),
  }),
  configList: command({
    path: ['config', 'list'],
    summary: 'Show the settings of every profile (keys masked)',
    flags: {},
    examples: ['parcels config list'],
    load: (): Loaded => import('./config/list.js'),
  }),
  configGet: command({
    path: ['config', 'get'],
    args: '<key>',
    summary: 'Print one setting of the profile (output, timeout, retries, base_url)',
    flags: {},
    examples: ['parcels config get output'],
    load: (): Loaded => import('./config/get.js'),
  }),
  configSet: command({
    path: ['config', 'set'],
    args: '<key> <value>',
    summary: 'Change one setting of the profile (output, timeout, retries, base_url)',
    flags: {},
    examples: ['parcels config set output json', 'parcels config set timeout 10 --profile ci'],
    load: (): Loaded => import('./config/set.js'),
  }),
  sandboxServe: command({
    path: ['sandbox', 'serve'],
    summary: 'Run the local sandbox API server',
    flags: {
      host: { type: 'string', flags: '--host <host>', description: 'address to listen on (default 127.0.0.1)', default: '127.0.0.1' },
      port: { type: 'int', flags: '--port <port>', description: 'port; 0 picks a free one (default 8787)', default: 8787, min: 0, max: 65535 },
      db: { type: 'string', flags: '--db <file>', description: 'SQLite file, or :memory: (default: in the data directory)' },
      seed: { type: 'string', flags: '--seed <file>', description: 'seed JSON: organisations, couriers, keys, rate limits' },
      latency: { type: 'int', flags: '--latency <ms>', description: 'delay every response', min: 0, max: 60_000 },
      failRate: { type: 'string', flags: '--fail-rate <p>', description: 'share of requests answered 500/503 before any change' },
      dropRate: { type: 'string', flags: '--drop-rate <p>', description: 'share of requests committed but cut before the answer' },
      faultSeed: { type: 'int', flags: '--fault-seed <n>', description: 'make injected faults reproducible' },
      clockOffset: { type: 'int', flags: '--clock-offset <seconds>', description: "shift the sandbox's clock" },
      oracleUnavailable: { type: 'bool', flags: '--oracle-unavailable', description: 'make the oracle routes answer 503' },
      headersTimeout: { type: 'int', flags: '--headers-timeout <ms>', description: 'time to receive request headers (default 20000)', min: 1, max: 3_600_000 },
      requestTimeout: { type: 'int', flags: '--request-timeout <ms>', description: 'time to receive a whole request (default 30000)', min: 1, max: 3_600_000 },
      keepAliveTimeout: { type: 'int', flags: '--keep-alive-timeout <ms>', description: 'idle keep-alive connection lifetime (default 5000)', min: 1, max: 3_600_000 },
      idleTimeout: { type: 'int', flags: '--idle-timeout <ms>', description: 'close a socket silent this long (default 60000)', min: 1, max: 3_600_000 },
      maxConnections: { type: 'int', flags: '--max-connections <n>', description: 'open connections at most (default 1024)', min: 1, max: 1_000_000 },
      frozen: { type: 'bool', flags: '--frozen', description: 'start with the test clock stopped' },
      speed: { type: 'string', flags: '--speed <n>', description: 'run the test clock n times real time (e.g. 600)' },
      scenarios: { type: 'string', flags: '--scenarios <file>', description: 'custom scenarios and rules (JSON)' },
      scenarioSeed: { type: 'int', flags: '--scenario-seed <n>', description: "seed of the scenarios' random choices", min: 0, max: 4_294_967_295 },
      duplicateRate: { type: 'string', flags: '--duplicate-rate <p>', description: 'share of scenario reports sent twice' },
      lateRate: { type: 'string', flags: '--late-rate <p>', description: 'share of scenario reports observed 5 min to 6 h before they arrive' },
      reorderRate: { type: 'string', flags: '--reorder-rate <p>', description: 'share of scenario reports arriving after the next one' },
      dateDrift: { type: 'int', flags: '--date-drift <s>', description: 'the Date header drifts this many seconds per hour', min: -3600, max: 3600 },
      adminTokenFile: { type: 'string', flags: '--admin-token-file <file>', description: 'read the admin token from this file (env PARCELS_SANDBOX_ADMIN_TOKEN)' },
    },
    examples: [
      'parcels sandbox serve',
      'parcels sandbox serve --port 0 --db :memory: --fail-rate 0.2 --fault-seed 7',
      'parcels sandbox serve --speed 600 --scenarios flows.json --duplicate-rate 0.1',
    ],
    load: (): Loaded => import('./sandbox/serve.js'),
  }),
  sandboxClock: command({
    path: ['sandbox', 'clock'],
    args: '[action] [value]',
    summary: "Show or move the sandbox's test clock (advance, set, freeze, resume, speed)",
    flags: {},
    examples: [
      'parcels sandbox clock',
      'parcels sandbox clock advance 36h',
      'parcels sandbox clock set 2026-12-01T09:00Z',
      'parcels --sandbox sandbox clock freeze',
      'parcels sandbox clock speed 600',
    ],
    load: (): Loaded => import('./sandbox/clock.js'),
  }),
  sandboxSimulate: command({
    path: ['sandbox', 'simulate'],
    args: '<id> [scenario]',
    summary: 'Give a parcel a scenario that moves it by itself as the clock runs',
    flags: {},
    examples: ['parcels sandbox simulate 0b0c…e1 happy', 'parcels sandbox simulate 0b0c…e1', 'parcels --sandbox sandbox simulate 0b0c…e1 three-failures-returned'],
    load: (): Loaded => import('./sandbox/simulate.js'),
  }),
  sandboxLogs: command({
    path: ['sandbox', 'logs'],
    summary: 'Show the requests the sandbox received and what it answered (keys redacted)',
    flags: {
      follow: { type: 'bool', flags: '-f, --follow', description: 'keep printing requests as they arrive' },
      bodies: { type: 'bool', flags: '--bodies', description: 'include request and response bodies (never keys)' },
    },
    examples: ['parcels sandbox logs', 'parcels sandbox logs --follow', 'parcels sandbox logs --json --bodies'],
    load: (): Loaded => import('./sandbox/logs.js'),
  }),
} as const;

/** The command tree in the order help lists it. */
export const COMMANDS: readonly CommandDefinition[] = Object.values(definitions);

export const GLOBAL_OPTIONS: OptionDef[] = [
  { flags: '-p, --profile <name>', description: 'profile to use (env PARCELS_PROFILE)' },
  { flags: '--base-url <url>', description: 'API base URL (env PARCELS_BASE_URL)' },
  { flags: '-o, --output <format>', description: 'table, json, ndjson or csv (env PARCELS_OUTPUT)' },
  { flags: '--json', description: 'short for --output json' },
  { flags: '--fields <list>', description: 'comma-separated fields to show, e.g. entry_id,status' },
  { flags: '--jq <expression>', description: 'filter the JSON output with a jq expression (implies --json; strings print raw)' },
  { flags: '-q, --quiet', description: 'print only the essential value (e.g. the new id)' },
  { flags: '--no-color', description: 'no colour (also NO_COLOR=1)' },
  { flags: '-v, --verbose', description: 'trace requests and retries to stderr (key redacted)' },
  { flags: '--dry-run', description: 'print the request and a curl equivalent; send nothing' },
  { flags: '--sandbox', description: 'run against the embedded local sandbox (no server, no key needed)' },
  { flags: '--timeout <seconds>', description: 'per-request timeout (env PARCELS_TIMEOUT, default 30)' },
  { flags: '--retries <n>', description: 'retries on network errors, 429 and 5xx (env PARCELS_RETRIES, default 3)' },
];
