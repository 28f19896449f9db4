/** `batches`: the journals of bulk runs. Plain data: src/commands/loaders.ts names each command's module. */
import { command } from './definition.js';

export const batchesCommands = {
  batches: command({
    path: ['batches'],
    summary: 'List the journals of bulk runs (batch, input, counts, age)',
    flags: {},
    examples: ['parcels batches', 'parcels batches --json'],
  }),
  batchesPrune: command({
    path: ['batches', 'prune'],
    summary: 'Remove journals of bulk runs not written for a while',
    flags: {
      olderThan: { type: 'string', flags: '--older-than <age>', description: 'e.g. 7d, 12h, 30m (required)', required: true },
    },
    examples: ['parcels batches prune --older-than 7d'],
  }),
} as const;
