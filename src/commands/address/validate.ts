import { validateAddress } from '../../api/address.js';
import { defineCommand } from '../types.js';
import { dataFlag, defined } from '../shared/flags.js';
import type { definitions } from '../table.js';
import { showRecord } from '../shared/show.js';

export interface ValidateAddressOptions {
  body: Record<string, unknown>;
}

export default defineCommand<typeof definitions.validateAddress, ValidateAddressOptions>({
  async parse({ flags }, ctx) {
    const fromData = await dataFlag(flags.data, ctx);
    // The spec does not show this route's fields; the parcel's own address field names are used.
    const body = {
      ...(flags.data === undefined ? { country: 'NL' } : {}),
      ...fromData,
      ...defined({ country: flags.country, postal_code: flags.postalCode, number: flags.number, addition: flags.addition }),
    };
    return { body };
  },
  async run({ body }, ctx) {
    const response = await validateAddress(await ctx.api(), body, ctx.signal);
    await showRecord(ctx, response.data);
  },
});
