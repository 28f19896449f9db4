/** Address checks, account and usage, reference codes and the oracle. Plain data: src/commands/loaders.ts names each command's module. */
import { command } from './definition.js';
import { data } from './flags.js';

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
} as const;
