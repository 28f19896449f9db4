import { createAttempt } from '../../api/history.js';
import { renderMessage } from '../../io/render.js';
import type { DeliveryAttemptInput } from '../../schemas/history.js';
import { deliveryAttemptSchema } from '../../schemas/history.js';
import { validate } from '../../schemas/validate.js';
import { defineCommand } from '../types.js';
import { dataFlag, defined, issuesToUsageError, parcelIdArg } from '../shared/flags.js';
import { timeFlag } from '../shared/time.js';
import type { definitions } from '../table.js';
import { outcomeFlag, reasonFlag } from '../shared/codes.js';
import { idempotencyKeyFlag } from '../shared/idempotency.js';
import { showRecord } from '../shared/show.js';
import type { BulkFlagValues, BulkRunOptions } from '../../bulk/command.js';
import { bulkOptions, rejectBulkOnlyFlags, runBulkCommand } from '../../bulk/command.js';
import type { QueueMode } from '../../bulk/queue.js';
import { queueMode, sendOrQueue } from '../../bulk/queue.js';
import { bareIdArg } from '../shared/bulk-args.js';

export interface SingleAttemptOptions {
  id: string;
  body: DeliveryAttemptInput;
  idempotencyKey: string;
  queue?: QueueMode;
}

/** One attempt for the parcel given, or one per line of --from. */
export type AttemptAddOptions = SingleAttemptOptions | BulkRunOptions;

const ATTEMPT_FLAGS: Readonly<Record<string, string>> = {
  time_attempt: '--at',
  outcome: '--outcome',
  reason: '--reason',
  delivered: '--delivered-*',
  'delivered.delivered_country': '--delivered-country',
  'delivered.delivered_postal_code': '--delivered-postal-code',
  'delivered.delivered_number': '--delivered-number',
  'delivered.delivered_city': '--delivered-city',
  'delivered.delivered_street': '--delivered-street',
  'delivered.delivered_addition': '--delivered-addition',
  'delivered.delivered_location_type': '--delivered-location-type',
};

export default defineCommand<typeof definitions.attemptsAdd, AttemptAddOptions>({
  async parse({ args, flags }, ctx) {
    const bulk: BulkFlagValues = flags;
    const { outcome, reason, at } = flags;
    const delivered = defined({
      delivered_country: flags.deliveredCountry,
      delivered_postal_code: flags.deliveredPostalCode,
      delivered_number: flags.deliveredNumber,
      delivered_city: flags.deliveredCity,
      delivered_street: flags.deliveredStreet,
      delivered_addition: flags.deliveredAddition,
      delivered_location_type: flags.deliveredLocationType,
    });
    const now = await ctx.serviceNow();
    const fields = defined({
      time_attempt: at === undefined ? undefined : timeFlag(at, '--at', now),
      outcome: outcome === undefined ? undefined : outcomeFlag(outcome, '--outcome'),
      reason: reason === undefined ? undefined : reasonFlag(reason, '--reason'),
    });
    if (flags.from !== undefined) {
      return bulkOptions('attempts', bulk, Object.keys(delivered).length > 0 ? { ...fields, delivered } : fields, ctx, now, args[0]);
    }
    rejectBulkOnlyFlags(bulk);
    const id = parcelIdArg(bareIdArg(args[0]));
    const fromData = await dataFlag(flags.data, ctx);
    const body: Record<string, unknown> = { ...fromData, ...fields };
    if (Object.keys(delivered).length > 0) {
      const given = typeof fromData.delivered === 'object' && fromData.delivered !== null ? fromData.delivered : {};
      body.delivered = { ...given, ...delivered };
    }
    if (body.time_attempt === undefined && flags.data === undefined) body.time_attempt = now;
    const checked = validate(deliveryAttemptSchema(() => now), body);
    if (!checked.ok) throw issuesToUsageError(checked.issues, flags.data === undefined ? ATTEMPT_FLAGS : {}, 'the attempt');
    return { id, body: body as DeliveryAttemptInput, idempotencyKey: idempotencyKeyFlag(flags.idempotencyKey, ctx), ...queueMode(flags) };
  },

  async run(options, ctx) {
    if ('from' in options) return runBulkCommand(options, ctx);
    const { id, body, idempotencyKey } = options;
    const client = await ctx.api();
    const response = await sendOrQueue(ctx, options.queue, { kind: 'attempts', parcel: id, body, idempotencyKey }, (bytes) =>
      createAttempt(client, id, bytes, idempotencyKey, ctx.signal),
    );
    await (await ctx.etags()).delete(id);
    await showRecord(ctx, response.data);
    if (ctx.outputFormat() === 'table') await renderMessage(ctx.io, `Recorded delivery attempt for parcel ${id}`, 'success');
  },
});
