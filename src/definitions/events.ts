/** `events …`: plain data; src/commands/loaders.ts names the module that runs each. */
import { command } from './definition.js';
import { BULK_NOTES, bulk, data, envelope, historyBulk, idempotencyKey } from './flags.js';

export const eventsCommands = {
  eventsList: command({
    path: ['events', 'list'],
    args: '<id>',
    summary: "List a parcel's status events (at most 1000)",
    flags: {},
    examples: ['parcels events list <id>', 'parcels events list <id> --output ndjson'],
  }),
  eventsAdd: command({
    path: ['events', 'add'],
    args: '[id]',
    summary: 'Report a status event (status 0-3)',
    flags: {
      status: { type: 'string', flags: '--status <status>', description: 'status 0-3 or its name, e.g. in_transit (required, or in --data / each --from line)' },
      at: { type: 'string', flags: '--at <time>', description: 'observation time: Unix seconds, ISO 8601 or "now" (default now)' },
      data,
      idempotencyKey,
      envelope,
      ...bulk,
      ...historyBulk,
    },
    examples: [
      'parcels events add <id> --status in_transit',
      'parcels events add <id> --status 1 --at 2026-11-22T08:00:00Z',
      'parcels list --status 2 -o ndjson | parcels events add --from - --status in_delivery',
      'parcels events add <id> --status in_delivery --queue',
    ],
    notes: BULK_NOTES,
  }),
} as const;
