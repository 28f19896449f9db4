import { validateAddress } from '../../api/address.js';
import { UsageError } from '../../errors.js';
import { defineCommand } from '../types.js';
import { dataFlag, defined, stringFlags } from '../shared/flags.js';
import { showRecord } from '../shared/show.js';

export interface ValidateAddressOptions {
  body: Record<string, unknown>;
}

export default defineCommand<ValidateAddressOptions>({
  async parse({ flags }, ctx) {
    const str = stringFlags(flags);
    const fromData = await dataFlag(str('data'), ctx);
    // The spec does not show this route's fields; the parcel's own address field names are used.
    const body = {
      ...(str('data') === undefined ? { country: 'NL' } : {}),
      ...fromData,
      ...defined({ country: str('country'), postal_code: str('postalCode'), number: str('number'), addition: str('addition') }),
    };
    if (body.postal_code === undefined && str('data') === undefined) {
      throw new UsageError('--postal-code is required', '--postal-code');
    }
    return { body };
  },
  async run({ body }, ctx) {
    const response = await validateAddress(await ctx.api(), body);
    await showRecord(ctx, response.data);
  },
});
