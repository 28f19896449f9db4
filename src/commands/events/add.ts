import type { StatusEventInput } from '../../schemas/history.js';
import { statusEventSchema } from '../../schemas/history.js';
import { validate } from '../../schemas/validate.js';
import { UsageError } from '../../errors.js';
import { resolveParcelId } from '../../args/parcel-id.js';
import { otherCommand } from '../../hint/hint.js';
import { defineCommand } from '../../command-kit/types.js';
import { dataFlag, defined, issuesToUsageError } from '../../args/flags.js';
import { timeFlag } from '../../args/time-input.js';
import type { eventsCommands } from '../../definitions/events.js';
import { statusFlag } from '../../args/codes.js';
import { replayNote } from '../../args/idempotency.js';
import { assertEnvelopeFlags, presentEnvelope } from '../../io/present/envelope.js';
import { presentResource } from '../../io/present/resource.js';
import { presentWritten } from '../../io/present.js';
import type { BulkFlagValues, BulkRunOptions } from '../../bulk/flags.js';
import { bulkOptions, rejectBulkOnlyFlags } from '../../bulk/flags.js';
import type { QueueMode } from '../../bulk/queue.js';
import type { FlagName } from '../../schemas/flag-name.js';
import { oneShotWrite, sendOrQueue } from '../../bulk/queue.js';
import { bareIdArg } from '../../bulk/args.js';
import { requireState } from '../../args/required-state.js';
import type { CommandFlag } from '../../schemas/flag-name.js';

export interface SingleEventOptions {
  id: string;
  body: StatusEventInput;
  idempotencyKey: string;
  queue?: QueueMode;
  /** --envelope: print {data, outcome, etag} (src/io/present/envelope.ts). */
  envelope: boolean;
  /** The flag that makes the command line build this body again (the time it filled in): src/bulk/queue.ts. */
  pin?: readonly [FlagName, string];
}

/** One event for the parcel given, or one per line of --from. */
export type EventAddOptions = SingleEventOptions | BulkRunOptions;

const EVENT_FLAGS: Readonly<Record<string, CommandFlag<typeof eventsCommands.eventsAdd>>> = { status: '--status', occurred_at: '--at' };

export default defineCommand<typeof eventsCommands.eventsAdd, EventAddOptions>({
  async parse({ args, flags }, ctx) {
    const bulk: BulkFlagValues = flags;
    const { status, at } = flags;
    const now = await ctx.serviceNow();
    const fields = defined({
      status: status === undefined ? undefined : await statusFlag(status, '--status', ctx),
      occurred_at: at === undefined ? undefined : timeFlag(at, '--at', now),
    });
    if (flags.from !== undefined) return bulkOptions('events', bulk, fields, ctx, now, args[0]);
    rejectBulkOnlyFlags(bulk);
    if (flags.envelope) assertEnvelopeFlags(ctx);
    const id = await resolveParcelId(bareIdArg(args[0]), ctx);
    const fromData = await dataFlag(flags.data, ctx);
    const body = { ...fromData, ...fields };
    const filledIn = body.occurred_at === undefined && flags.data === undefined;
    if (filledIn) body.occurred_at = now;
    if (body.status === 4 || body.status === 5) {
      const name = status === undefined ? 'status' : '--status';
      throw new UsageError(
        `${name} ${body.status} cannot be reported as a status event (only 0-3)`,
        name,
        `statuses 4 and 5 come from delivery attempts: \`${otherCommand(ctx.commandLine, ['attempts', 'add', id, '--outcome', body.status === 4 ? 'delivered' : 'failed'])}\``,
      );
    }
    const checked = validate(statusEventSchema(() => now), body);
    if (!checked.ok) throw issuesToUsageError(checked.issues, flags.data === undefined ? EVENT_FLAGS : {}, 'the event');
    requireState('events', body, flags.data !== undefined);
    // Send what the user gave (defaults are the service's to apply), but only once it passed the rules.
    return { id, body: body as StatusEventInput, ...(await oneShotWrite(flags, ctx, filledIn ? now : undefined)) };
  },

  async run(options, ctx) {
    if ('from' in options) return (await import('../../bulk/command.js')).runBulkCommand(options, ctx);
    const { id, body, idempotencyKey, pin } = options;
    const client = await ctx.api();
    const response = await sendOrQueue(ctx, options.queue, { kind: 'events', parcel: id, body, idempotencyKey, pin }, (bytes) =>
      client.route('events.create', { params: { id }, body: bytes, idempotencyKey, signal: ctx.signal }),
    );
    // The parcel's representation (its status) changed, so a cached ETag is now stale.
    await (await ctx.etags()).delete(id);
    if (options.envelope) return presentEnvelope(ctx, response, id);
    await presentResource(ctx, response.data, { view: 'events', parentId: id, afterWrite: true });
    await presentWritten(ctx, `Recorded status event for parcel ${id}${replayNote(response.headers)}`);
  },
});
