/** `reference`: plain data; src/commands/loaders.ts names the module that runs it. */
import { command } from './definition.js';

export const referenceCommands = {
  reference: command({
    path: ['reference'],
    summary: 'Status, outcome, reason, location and service codes with their names',
    flags: {},
    examples: ['parcels reference', 'parcels reference --json'],
  }),
} as const;
