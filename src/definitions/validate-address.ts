/** `validate-address`: plain data; src/commands/loaders.ts names the module that runs it. */
import { command } from './definition.js';
import { data } from './flags.js';

export const validateAddressCommands = {
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
} as const;
