/** `get`: plain data; src/commands/loaders.ts names the module that runs it. */
import { command } from './definition.js';

export const getCommands = {
  get: command({
    path: ['get'],
    args: '<id>',
    summary: 'Show one parcel and remember its ETag for the next patch',
    flags: {},
    examples: ['parcels get <id>', 'parcels get <id> --json --fields entry_id,status'],
  }),
} as const;
