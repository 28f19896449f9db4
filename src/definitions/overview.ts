/** `overview`: plain data; src/commands/loaders.ts names the module that runs it. */
import { command } from './definition.js';

export const overviewCommands = {
  overview: command({
    path: ['overview'],
    summary: 'Counts within your organisation',
    flags: {},
    examples: ['parcels overview --json'],
  }),
} as const;
