import { createAttempt } from '../../api/history.js';
import { renderMessage } from '../../io/render.js';
import type { DeliveryAttemptInput } from '../../schemas/history.js';
import { deliveryAttemptSchema } from '../../schemas/history.js';
import { validate } from '../../schemas/validate.js';
import { defineCommand } from '../types.js';
import { dataFlag, defined, intFlag, issuesToUsageError, parcelIdArg, stringFlags, timeFlag } from '../shared/flags.js';
import { outcomeFlag, reasonFlag } from '../shared/codes.js';
import { idempotencyKeyFlag } from '../shared/idempotency.js';
import { showRecord } from '../shared/show.js';

export interface AttemptAddOptions {
  id: string;
  body: DeliveryAttemptInput;
  idempotencyKey: string;
}

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

export default defineCommand<AttemptAddOptions>({
  async parse({ args, flags }, ctx) {
    const id = parcelIdArg(args[0] ?? '');
    const str = stringFlags(flags);
    const fromData = await dataFlag(str('data'), ctx);
    const outcome = str('outcome');
    const reason = str('reason');
    const at = str('at');
    const locationType = str('deliveredLocationType');
    const delivered = defined({
      delivered_country: str('deliveredCountry'),
      delivered_postal_code: str('deliveredPostalCode'),
      delivered_number: str('deliveredNumber'),
      delivered_city: str('deliveredCity'),
      delivered_street: str('deliveredStreet'),
      delivered_addition: str('deliveredAddition'),
      delivered_location_type: locationType === undefined ? undefined : intFlag(locationType, '--delivered-location-type'),
    });
    const body: Record<string, unknown> = {
      ...fromData,
      ...defined({
        time_attempt: at === undefined ? undefined : timeFlag(at, '--at', ctx.now()),
        outcome: outcome === undefined ? undefined : outcomeFlag(outcome, '--outcome'),
        reason: reason === undefined ? undefined : reasonFlag(reason, '--reason'),
      }),
    };
    if (Object.keys(delivered).length > 0) {
      const given = typeof fromData.delivered === 'object' && fromData.delivered !== null ? fromData.delivered : {};
      body.delivered = { ...given, ...delivered };
    }
    if (body.time_attempt === undefined && str('data') === undefined) body.time_attempt = ctx.now();
    const checked = validate(deliveryAttemptSchema(() => ctx.now()), body);
    if (!checked.ok) throw issuesToUsageError(checked.issues, str('data') === undefined ? ATTEMPT_FLAGS : {}, 'the attempt');
    return { id, body: body as DeliveryAttemptInput, idempotencyKey: idempotencyKeyFlag(str('idempotencyKey'), ctx) };
  },

  async run({ id, body, idempotencyKey }, ctx) {
    const response = await createAttempt(await ctx.api(), id, body, idempotencyKey);
    await (await ctx.etags()).delete(id);
    await showRecord(ctx, response.data);
    if (ctx.outputFormat() === 'table') await renderMessage(ctx.io, `Recorded delivery attempt for parcel ${id}`, 'success');
  },
});
