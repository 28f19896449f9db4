/** `outbox`: what --queue and --offline kept, dropping and flushing it. Plain data: src/commands/loaders.ts names each command's module. */
import { command } from './definition.js';

export const outboxCommands = {
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
} as const;
