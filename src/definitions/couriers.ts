/** `couriers`: plain data; src/commands/loaders.ts names the module that runs it. */
import { command } from './definition.js';

export const couriersCommands = {
  couriers: command({
    path: ['couriers'],
    summary: "List your organisation's registered couriers",
    flags: {},
    examples: ['parcels couriers'],
  }),
} as const;
