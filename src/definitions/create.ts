/** `create`: plain data; src/commands/loaders.ts names the module that runs it. */
import { command } from './definition.js';
import { BULK_NOTES, bulk, createBulk, data, envelope, idempotencyKey, parcelFieldFlags } from './flags.js';

export const createCommands = {
  create: command({
    path: ['create'],
    summary: 'Register a parcel with one of your couriers',
    flags: {
      ...parcelFieldFlags,
      data,
      idempotencyKey,
      envelope,
      ...bulk,
      ...createBulk,
    },
    examples: [
      'parcels create --courier DEMO-BIKE --country NL --postal-code 1234AB --number 10',
      'parcels create --data @parcel.json --json',
      'echo \'{"courier":"DEMO-VAN","country":"NL","postal_code":"1011AB","number":"1"}\' | parcels create --data - --quiet',
      'parcels create --from parcels.csv --concurrency 32 > results.ndjson',
      'parcels create --from parcels.csv --continue',
      'parcels create --queue --courier DEMO-BIKE --country NL --postal-code 1234AB --number 10 --quiet',
    ],
    notes: BULK_NOTES,
  }),
} as const;
