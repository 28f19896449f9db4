import { NotValidError } from '../errors.js';
import { isRecord } from '../schemas/record.js';
import { defineCommand } from '../command-kit/types.js';
import { dataFlag, defined } from '../args/flags.js';
import type { validateAddressCommands } from '../definitions/validate-address.js';
import { presentResource } from '../io/present/resource.js';

export interface ValidateAddressOptions {
  body: Record<string, unknown>;
  exitStatus: boolean;
}

export default defineCommand<typeof validateAddressCommands.validateAddress, ValidateAddressOptions>({
  async parse({ flags }, ctx) {
    const fromData = await dataFlag(flags.data, ctx);
    // The spec does not show this route's fields; the parcel's own address field names are used.
    const body = {
      ...(flags.data === undefined ? { country: 'NL' } : {}),
      ...fromData,
      ...defined({ country: flags.country, postal_code: flags.postalCode, number: flags.number, addition: flags.addition }),
    };
    return { body, exitStatus: flags.exitStatus };
  },
  async run({ body, exitStatus }, ctx) {
    const response = await (await ctx.api()).route('address.validate', { body, signal: ctx.signal });
    await presentResource(ctx, response.data);
    if (!exitStatus) return;
    // The spec shows no response fields: --exit-status relies on a boolean `valid` and says so when there is none.
    const valid = isRecord(response.data) ? response.data.valid : undefined;
    if (typeof valid !== 'boolean') throw new Error('the answer has no boolean "valid" field, so --exit-status cannot tell');
    if (!valid) throw new NotValidError('the service says the address is not valid');
  },
});
