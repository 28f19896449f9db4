/** Address checks, account and usage, reference codes, the oracle and the raw `api` command. Plain data: loaders import their module only when called (see ../table.ts). */
import { command } from './definition.js';
import { data, idempotencyKey } from './flags.js';

export const accountCommands = {
  validateAddress: command({
    path: ['validate-address'],
    summary: 'Check a Dutch address',
    flags: {
      country: { type: 'string', flags: '--country <code>', description: 'country code (default NL)' },
      postalCode: { type: 'string', flags: '--postal-code <code>', description: 'postal code', requiredUnless: ['data'] },
      number: { type: 'string', flags: '--number <text>', description: 'house number' },
      addition: { type: 'string', flags: '--addition <text>', description: 'house-number addition' },
      data,
      exitStatus: { type: 'bool', flags: '--exit-status', description: 'exit 10 when the service says the address is not valid (for scripts)' },
    },
    examples: ['parcels validate-address --postal-code 1234AB --number 10', 'parcels validate-address --postal-code 1234AB --number 10 --exit-status --quiet'],
  }),
  usage: command({
    path: ['usage'],
    summary: 'Daily API usage totals over 30 days (same as usage daily)',
    flags: {},
    examples: ['parcels usage', 'parcels usage --json'],
  }),
  usageDaily: command({
    path: ['usage', 'daily'],
    summary: 'Daily API usage totals over 30 days',
    flags: {},
    examples: ['parcels usage daily', 'parcels usage daily --json'],
  }),
  usageRequests: command({
    path: ['usage', 'requests'],
    summary: 'The latest 100 API requests within 30 days',
    flags: {},
    examples: ['parcels usage requests --output csv'],
  }),
  couriers: command({
    path: ['couriers'],
    summary: "List your organisation's registered couriers",
    flags: {},
    examples: ['parcels couriers'],
  }),
  overview: command({
    path: ['overview'],
    summary: 'Counts within your organisation',
    flags: {},
    examples: ['parcels overview --json'],
  }),
  reference: command({
    path: ['reference'],
    summary: 'Status, outcome, reason, location and service codes with their names',
    flags: {},
    examples: ['parcels reference', 'parcels reference --json'],
  }),
  oracle: command({
    path: ['oracle'],
    args: '<metric>',
    summary: 'Aggregate metrics: activity, planned, or coverage metadata',
    flags: { param: { type: 'list', flags: '--param <key=value>', description: 'query parameter for the metric' } },
    examples: ['parcels oracle activity', 'parcels oracle planned --param days=7 --json', 'parcels oracle coverage'],
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
      'parcels api PATCH /deliveries/v1/parcels/<id> -F parcel_weight=1200 -H \'If-Match: "etag"\'',
      "parcels api GET /deliveries/v1/parcels --paginate --jq .entry_id",
    ],
  }),
} as const;
