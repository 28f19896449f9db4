import { createParcel } from '../../api/parcels.js';
import { entryId } from '../../api/envelope.js';
import { renderLine, renderMessage } from '../../io/render.js';
import type { ParcelCreateInput } from '../../schemas/parcel.js';
import { parcelCreateSchema } from '../../schemas/parcel.js';
import { validate } from '../../schemas/validate.js';
import { defineCommand } from '../types.js';
import { dataFlag, defined, intFlag, issuesToUsageError, stringFlags, timeFlag } from '../shared/flags.js';
import { idempotencyKeyFlag } from '../shared/idempotency.js';
import { showRecord } from '../shared/show.js';

export interface CreateOptions {
  body: ParcelCreateInput;
  idempotencyKey: string;
}

/** Body field → the flag that sets it, so errors name what the user typed. */
export const CREATE_FLAGS: Readonly<Record<string, string>> = {
  courier: '--courier',
  country: '--country',
  postal_code: '--postal-code',
  number: '--number',
  addition: '--addition',
  parcel_length: '--length',
  parcel_width: '--width',
  parcel_height: '--height',
  parcel_weight: '--weight',
  time_slot_period_start: '--slot-start',
  time_slot_period_end: '--slot-end',
  service_type: '--service-type',
};

export default defineCommand<CreateOptions>({
  async parse({ flags }, ctx) {
    const str = stringFlags(flags);
    const int = (name: string, flag: string): number | undefined => {
      const v = str(name);
      return v === undefined ? undefined : intFlag(v, flag);
    };
    const time = (name: string, flag: string): number | undefined => {
      const v = str(name);
      return v === undefined ? undefined : timeFlag(v, flag, ctx.now());
    };
    const fromData = await dataFlag(str('data'), ctx);
    const body = {
      ...fromData,
      ...defined({
        courier: str('courier'),
        country: str('country'),
        postal_code: str('postalCode'),
        number: str('number'),
        addition: str('addition'),
        parcel_length: int('length', '--length'),
        parcel_width: int('width', '--width'),
        parcel_height: int('height', '--height'),
        parcel_weight: int('weight', '--weight'),
        time_slot_period_start: time('slotStart', '--slot-start'),
        time_slot_period_end: time('slotEnd', '--slot-end'),
        service_type: int('serviceType', '--service-type'),
      }),
    };
    const checked = validate(parcelCreateSchema, body);
    if (!checked.ok) {
      const flagFor = str('data') === undefined ? CREATE_FLAGS : {};
      throw issuesToUsageError(checked.issues, flagFor, 'the parcel');
    }
    return { body: checked.value, idempotencyKey: idempotencyKeyFlag(str('idempotencyKey'), ctx) };
  },

  async run(options, ctx) {
    const client = await ctx.api();
    const response = await createParcel(client, options.body, options.idempotencyKey);
    const id = entryId(response.data);
    if (id !== undefined && response.etag !== undefined) await (await ctx.etags()).set(id, response.etag);
    if (ctx.globals.quiet) {
      if (id === undefined) throw new Error('the service answered without data.entry_id');
      await renderLine(ctx.io, id);
      return;
    }
    await showRecord(ctx, response.data);
    if (ctx.outputFormat() === 'table') await renderMessage(ctx.io, `Created parcel ${id ?? '(no entry_id in the answer)'}`, 'success');
  },
});

