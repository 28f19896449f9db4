/** `list`: plain data; src/commands/loaders.ts names the module that runs it. */
import { command } from './definition.js';

export const listCommands = {
  list: command({
    path: ['list'],
    summary: 'List parcels, one page or --all',
    flags: {
      courier: { type: 'string', flags: '--courier <code>', description: 'only parcels of this courier' },
      status: { type: 'string', flags: '--status <status>', description: 'only this status: 0-5 or a name (in_transit)' },
      limit: { type: 'string', flags: '--limit <n>', description: 'page size, 1-100 (default 50)' },
      cursor: { type: 'string', flags: '--cursor <cursor>', description: 'continue from a next_cursor' },
      all: { type: 'bool', flags: '--all', description: 'follow next_cursor to the end, streaming items' },
      max: { type: 'int', flags: '--max <n>', description: 'with --all: stop after n parcels', min: 1 },
    },
    examples: [
      'parcels list --status in_transit',
      'parcels list --all --max 500 --output csv',
      'parcels list --all --output ndjson | jq .entry_id',
      'parcels list --courier DEMO-BIKE --limit 10 --json',
    ],
  }),
} as const;
