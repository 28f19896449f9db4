import { FLAG_FOR_FIELD, parcelFieldFlagValues } from '../args/field-flags.js';
import { entryId } from '../api/envelope.js';
import { renderLine } from '../io/render.js';
import type { ParcelCreateInput } from '../schemas/parcel.js';
import { parcelCreateSchema } from '../schemas/parcel.js';
import { validate } from '../schemas/validate.js';
import { defineCommand } from '../command-kit/types.js';
import { dataFlag, issuesToUsageError } from '../args/flags.js';
import type { createCommands } from '../definitions/create.js';
import { replayNote } from '../args/idempotency.js';
import { assertEnvelopeFlags, presentEnvelope } from '../io/present/envelope.js';
import { presentResource } from '../io/present/resource.js';
import { presentWritten } from '../io/present.js';
import { withCourierCodes } from '../args/couriers.js';
import { rememberParcelIds } from '../args/parcel-id.js';
import { normaliseAddress } from '../schemas/address-normalize.js';
import type { BulkRunOptions, BulkFlagValues } from '../bulk/flags.js';
import { bulkOptions, rejectBulkOnlyFlags } from '../bulk/flags.js';
import type { QueueMode } from '../bulk/queue.js';
import { oneShotWrite, sendOrQueue } from '../bulk/queue.js';

export interface SingleCreateOptions {
  body: ParcelCreateInput;
  idempotencyKey: string;
  queue?: QueueMode;
  /** --envelope: print {data, outcome, etag} (src/io/present/envelope.ts). */
  envelope: boolean;
}

/** One parcel from flags or --data, or one per line of --from. */
export type CreateOptions = SingleCreateOptions | BulkRunOptions;

export default defineCommand<typeof createCommands.create, CreateOptions>({
  async parse({ flags }, ctx) {
    const now = await ctx.serviceNow();
    const bulk: BulkFlagValues = flags;
    const fromData = await dataFlag(flags.data, ctx);
    const fields = Object.fromEntries((await parcelFieldFlagValues(flags, ctx)).map(({ field, value }) => [field, value]));
    // `--country nl --postal-code "1234 ab"` is sent as NL and 1234AB (src/schemas/address-normalize.ts).
    if (flags.from !== undefined) return bulkOptions('create', bulk, normaliseAddress(fields, 'country', 'postal_code'), ctx, now);
    rejectBulkOnlyFlags(bulk);
    if (flags.envelope) assertEnvelopeFlags(ctx);
    const body = normaliseAddress({ ...fromData, ...fields }, 'country', 'postal_code');
    const checked = validate(parcelCreateSchema, body);
    if (!checked.ok) {
      const flagFor = flags.data === undefined ? FLAG_FOR_FIELD : {};
      throw issuesToUsageError(checked.issues, flagFor, 'the parcel');
    }
    return { body: checked.value, ...(await oneShotWrite(flags, ctx)) };
  },

  async run(options, ctx) {
    if ('from' in options) return (await import('../bulk/command.js')).runBulkCommand(options, ctx);
    const client = await ctx.api();
    const response = await sendOrQueue(ctx, options.queue, { kind: 'create', body: options.body, idempotencyKey: options.idempotencyKey }, (bytes) =>
      client.route('parcels.create', { body: bytes, idempotencyKey: options.idempotencyKey, signal: ctx.signal }),
    ).catch(async (error: unknown) => {
      // An unknown courier: the refusal lists the organisation's couriers, with the closest one.
      throw await withCourierCodes(error, ctx, options.body.courier);
    });
    const id = entryId(response.data);
    if (id !== undefined && response.etag !== undefined) await (await ctx.etags()).set(id, response.etag);
    if (options.envelope) return presentEnvelope(ctx, response, id);
    if (ctx.globals.quiet) {
      if (id === undefined) throw new Error('the service answered without data.entry_id');
      await rememberParcelIds(ctx, [id]);
      await renderLine(ctx.io, id);
      return;
    }
    await presentResource(ctx, response.data, { view: 'parcels', afterWrite: true });
    await presentWritten(ctx, `Created parcel ${id ?? '(no entry_id in the answer)'}${replayNote(response.headers)}`);
  },
});

