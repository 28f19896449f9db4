import type { DeliveryAttemptInput } from '../../schemas/history.js';
import { deliveryAttemptSchema } from '../../schemas/history.js';
import { validate } from '../../schemas/validate.js';
import { resolveParcelId } from '../../args/parcel-id.js';
import { defineCommand } from '../../command-kit/types.js';
import { dataFlag, defined, issuesToUsageError } from '../../args/flags.js';
import { timeFlag } from '../../args/time-input.js';
import type { attemptsCommands } from '../../definitions/attempts.js';
import { namedCodeFlag } from '../../args/codes.js';
import { normaliseAddress } from '../../schemas/address-normalize.js';
import { replayNote } from '../../args/idempotency.js';
import { assertEnvelopeFlags, presentEnvelope } from '../../io/present/envelope.js';
import { presentResource } from '../../io/present/resource.js';
import { presentWritten } from '../../io/present.js';
import type { BulkFlagValues, BulkRunOptions } from '../../bulk/flags.js';
import { bulkOptions, rejectBulkOnlyFlags } from '../../bulk/flags.js';
import type { QueueMode } from '../../bulk/queue.js';
import { oneShotWrite, sendOrQueue } from '../../bulk/queue.js';
import { bareIdArg } from '../../bulk/args.js';
import { UsageError } from '../../errors.js';
import { requireState } from '../../args/required-state.js';
import { deliveredElsewhereAddress } from '../../args/delivered-elsewhere.js';
import type { FlagGroup, FlagName } from '../../schemas/flag-name.js';

export interface SingleAttemptOptions {
  id: string;
  body: DeliveryAttemptInput;
  idempotencyKey: string;
  queue?: QueueMode;
  /** --envelope: print {data, outcome, etag} (src/io/present/envelope.ts). */
  envelope: boolean;
  /** The flag that makes the command line build this body again (the time it filled in): src/bulk/queue.ts. */
  pin?: readonly [FlagName, string];
}

/** One attempt for the parcel given, or one per line of --from. */
export type AttemptAddOptions = SingleAttemptOptions | BulkRunOptions;

const ATTEMPT_FLAGS: Readonly<Record<string, FlagName | FlagGroup>> = {
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

export default defineCommand<typeof attemptsCommands.attemptsAdd, AttemptAddOptions>({
  async parse({ args, flags }, ctx) {
    const bulk: BulkFlagValues = flags;
    const { outcome, reason, at } = flags;
    // `--delivered-country nl --delivered-postal-code "1234 ab"` is sent as NL and 1234AB (src/schemas/address-normalize.ts).
    const delivered = normaliseAddress(defined({
      delivered_country: flags.deliveredCountry,
      delivered_postal_code: flags.deliveredPostalCode,
      delivered_number: flags.deliveredNumber,
      delivered_city: flags.deliveredCity,
      delivered_street: flags.deliveredStreet,
      delivered_addition: flags.deliveredAddition,
      delivered_location_type:
        flags.deliveredLocationType === undefined ? undefined : await namedCodeFlag(flags.deliveredLocationType, '--delivered-location-type', 'location_type', ctx),
    }), 'delivered_country', 'delivered_postal_code');
    const now = await ctx.serviceNow();
    const fields = defined({
      time_attempt: at === undefined ? undefined : timeFlag(at, '--at', now),
      outcome: outcome === undefined ? undefined : await namedCodeFlag(outcome, '--outcome', 'outcome', ctx),
      reason: reason === undefined ? undefined : await namedCodeFlag(reason, '--reason', 'reason', ctx),
    });
    if (flags.from !== undefined) {
      if (flags.withoutAddress === true) throw new UsageError('--without-address applies to one attempt, not to --from (each line sends what it holds)', '--without-address');
      return bulkOptions('attempts', bulk, Object.keys(delivered).length > 0 ? { ...fields, delivered } : fields, ctx, now, args[0]);
    }
    rejectBulkOnlyFlags(bulk);
    if (flags.envelope) assertEnvelopeFlags(ctx);
    const id = await resolveParcelId(bareIdArg(args[0]), ctx);
    const fromData = await dataFlag(flags.data, ctx);
    const body: Record<string, unknown> = { ...fromData, ...fields };
    if (Object.keys(delivered).length > 0) {
      const given = typeof fromData.delivered === 'object' && fromData.delivered !== null ? fromData.delivered : {};
      body.delivered = { ...given, ...delivered };
    }
    const filledIn = body.time_attempt === undefined && flags.data === undefined;
    if (filledIn) body.time_attempt = now;
    const checked = validate(deliveryAttemptSchema(() => now), body);
    if (!checked.ok) throw issuesToUsageError(checked.issues, flags.data === undefined ? ATTEMPT_FLAGS : {}, 'the attempt');
    requireState('attempts', body, flags.data !== undefined);
    const asked = await deliveredElsewhereAddress(body, flags.withoutAddress === true, ctx);
    if (asked !== undefined) body.delivered = asked;
    return { id, body: body as DeliveryAttemptInput, ...(await oneShotWrite(flags, ctx, filledIn ? now : undefined)) };
  },

  async run(options, ctx) {
    if ('from' in options) return (await import('../../bulk/command.js')).runBulkCommand(options, ctx);
    const { id, body, idempotencyKey, pin } = options;
    const client = await ctx.api();
    const response = await sendOrQueue(ctx, options.queue, { kind: 'attempts', parcel: id, body, idempotencyKey, pin }, (bytes) =>
      client.route('attempts.create', { params: { id }, body: bytes, idempotencyKey, signal: ctx.signal }),
    );
    await (await ctx.etags()).delete(id);
    if (options.envelope) return presentEnvelope(ctx, response, id);
    await presentResource(ctx, response.data, { view: 'attempts', parentId: id, afterWrite: true });
    await presentWritten(ctx, `Recorded delivery attempt for parcel ${id}${replayNote(response.headers)}`);
  },
});
