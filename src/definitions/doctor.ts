/** `doctor`: plain data; src/commands/loaders.ts names the module that runs it. */
import { command } from './definition.js';

export const doctorCommands = {
  doctor: command({
    path: ['doctor'],
    summary: 'Check the set-up as a checklist: settings, host, key, scopes, clock, config file, unfinished work',
    flags: {
      requireScope: {
        type: 'list',
        flags: '--require-scope <scope>',
        description: 'fail unless the key holds this scope (repeatable): deliveries:read, deliveries:write, usage:read, oracle:read',
      },
      wait: {
        type: 'string',
        flags: '--wait <duration>',
        description: 'first wait up to this long (e.g. 30s, 2m, at most 1h) for the service to answer, trying again by the retry policy (right after a deploy)',
      },
    },
    examples: ['parcels doctor', 'parcels doctor --json --require-scope deliveries:write', 'parcels doctor --wait 2m --require-scope deliveries:write'],
  }),
} as const;
