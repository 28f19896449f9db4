/** `usage` and `usage …`: plain data; src/commands/loaders.ts names the module that runs each. */
import { command } from './definition.js';

export const usageCommands = {
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
} as const;
