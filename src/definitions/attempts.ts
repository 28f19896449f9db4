/** `attempts …`: plain data; src/commands/loaders.ts names the module that runs each. */
import { command } from './definition.js';
import { BULK_NOTES, bulk, data, envelope, historyBulk, idempotencyKey } from './flags.js';

export const attemptsCommands = {
  attemptsList: command({
    path: ['attempts', 'list'],
    args: '<id>',
    summary: "List a parcel's delivery attempts",
    flags: {},
    examples: ['parcels attempts list <id>'],
  }),
  attemptsAdd: command({
    path: ['attempts', 'add'],
    args: '[id]',
    summary: 'Report a delivery attempt (the only way to statuses 4 and 5)',
    flags: {
      outcome: {
        type: 'string',
        flags: '--outcome <outcome>',
        description: 'outcome 0-4 or name: delivered, failed, delivered_elsewhere, refused, rescheduled (required, or in --data / each --from line)',
      },
      reason: { type: 'string', flags: '--reason <reason>', description: 'reason 0-10 or name, e.g. not_at_home' },
      at: { type: 'string', flags: '--at <time>', description: 'attempt time: Unix seconds, ISO 8601 or "now" (default now)' },
      deliveredCountry: { type: 'string', flags: '--delivered-country <code>', description: 'delivered address: country (NL)' },
      deliveredPostalCode: { type: 'string', flags: '--delivered-postal-code <code>', description: 'delivered address: postcode 1234AB' },
      deliveredNumber: { type: 'string', flags: '--delivered-number <text>', description: 'delivered address: house number' },
      deliveredCity: { type: 'string', flags: '--delivered-city <text>', description: 'delivered address: city' },
      deliveredStreet: { type: 'string', flags: '--delivered-street <text>', description: 'delivered address: street' },
      deliveredAddition: { type: 'string', flags: '--delivered-addition <text>', description: 'delivered address: addition' },
      deliveredLocationType: {
        type: 'string',
        flags: '--delivered-location-type <code>',
        description: 'delivered address: location type 0-6, or its name from `parcels reference`',
      },
      withoutAddress: {
        type: 'bool',
        flags: '--without-address',
        description: 'delivered_elsewhere: send without the delivered address (the parcel closes for good with none recorded)',
      },
      data,
      idempotencyKey,
      envelope,
      ...bulk,
      ...historyBulk,
    },
    examples: [
      'parcels attempts add --from attempts.ndjson --outcome delivered',
      'parcels attempts add <id> --outcome delivered',
      'parcels attempts add <id> --outcome failed --reason not_at_home',
      'parcels attempts add <id> --outcome delivered_elsewhere --delivered-country NL --delivered-postal-code 1234AB --delivered-number 12',
    ],
    notes: BULK_NOTES,
  }),
} as const;
