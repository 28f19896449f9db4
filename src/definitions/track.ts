/** `track`: fields and one timeline of events and attempts, --watch. Plain data: src/commands/loaders.ts names each command's module. */
import { command } from './definition.js';

export const trackCommands = {
  track: command({
    path: ['track'],
    args: '[id...]',
    summary: 'Follow parcels: fields and one timeline of events and attempts; --watch until delivered',
    flags: {
      from: { type: 'string', flags: '--from <file>', description: 'more ids: one per line, or NDJSON objects with entry_id; - for stdin' },
      watch: { type: 'bool', flags: '--watch', description: 'keep polling and print new entries; end when delivered (exit 0)' },
      interval: {
        type: 'int',
        flags: '--interval <seconds>',
        description: 'seconds between polls with --watch (default 30; at least 5, or 1 against this machine)',
        min: 1,
        max: 86_400,
      },
      failOnAttempt: { type: 'bool', flags: '--fail-on-attempt', description: 'with --watch: end at an attempt that did not deliver (exit 11)' },
    },
    examples: [
      'parcels track <id>',
      'parcels track <id> --json',
      'parcels track <id> --watch --fail-on-attempt',
      'parcels list --status in_transit --output ndjson | parcels track --from - --watch',
    ],
  }),
} as const;
