/** `patch`: plain data; src/commands/loaders.ts names the module that runs it. */
import { command } from './definition.js';
import { data, parcelChangeFlags } from './flags.js';

export const patchCommands = {
  patch: command({
    path: ['patch'],
    args: '<id>',
    summary: 'Change a parcel (sends If-Match with the ETag this reader last saw)',
    flags: {
      ...parcelChangeFlags,
      clear: { type: 'list', flags: '--clear <field>', description: 'clear a field: weight, addition, or any field name' },
      set: { type: 'list', flags: '--set <field=value>', description: 'set any field; value parsed as JSON when it can be' },
      data,
      ifMatch: {
        type: 'string',
        flags: '--if-match <etag>',
        description: 'ETag to send instead of the cached one (quotes included)',
        conflicts: ['refresh'],
      },
      refresh: { type: 'bool', flags: '--refresh', description: 'read the latest ETag first, then patch' },
    },
    examples: [
      'parcels get <id> && parcels patch <id> --weight 1200',
      'parcels patch <id> --clear weight --refresh',
      'parcels patch <id> --set service_type=2 --addition B',
      'parcels patch <id> --slot-start 2026-12-01T09:00 --slot-end 2026-12-01T11:00 --service-type next_day',
    ],
    notes: [
      'The ETag sent is the one this reader last saw: $PARCELS_SESSION when set, else this terminal session, else (no terminal) the user. Two terminals of one login get a 412 instead of overwriting each other.',
    ],
  }),
} as const;
