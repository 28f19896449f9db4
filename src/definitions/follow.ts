/** Following parcels and bulk work: track, the outbox and bulk batches. Plain data: loaders import their module only when called (see ../table.ts). */
import { command } from './definition.js';

export const followCommands = {
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
  outbox: command({
    path: ['outbox'],
    summary: 'List the requests --queue and --offline kept for later (age, command, parcel, what, state)',
    flags: {},
    examples: ['parcels outbox', 'parcels outbox --json', 'parcels outbox -q'],
  }),
  outboxDrop: command({
    path: ['outbox', 'drop'],
    args: '[seq...]',
    summary: 'Remove entries from the outbox for good: by number (the seq column), or every rejected one',
    flags: {
      rejected: { type: 'bool', flags: '--rejected', description: 'remove every entry the service rejected' },
    },
    examples: ['parcels outbox drop 3', 'parcels outbox drop --rejected'],
  }),
  outboxFlush: command({
    path: ['outbox', 'flush'],
    summary: 'Send what the outbox holds, in capture order, with the same keys and bytes',
    flags: {},
    examples: ['parcels outbox flush', 'parcels outbox flush --retries 3 > delivered.ndjson'],
  }),
  batches: command({
    path: ['batches'],
    summary: 'List the journals of bulk runs (batch, input, counts, age)',
    flags: {},
    examples: ['parcels batches', 'parcels batches --json'],
  }),
  batchesPrune: command({
    path: ['batches', 'prune'],
    summary: 'Remove journals of bulk runs not written for a while',
    flags: {
      olderThan: { type: 'string', flags: '--older-than <age>', description: 'e.g. 7d, 12h, 30m (required)', required: true },
    },
    examples: ['parcels batches prune --older-than 7d'],
  }),
} as const;
