/** `api`: a raw request to any route of the service. Plain data: src/commands/loaders.ts names each command's module. */
import { command } from './definition.js';
import { idempotencyKey } from './flags.js';

export const apiCommands = {
  api: command({
    path: ['api'],
    args: '<method> <path>',
    summary: "Send any request to the service with the profile's base URL and key (like gh api)",
    flags: {
      data: { type: 'string', flags: '-d, --data <json>', description: 'request body as JSON, @file.json, or - for stdin', filesAfter: '@' },
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
