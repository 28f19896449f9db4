import type { Context } from '../context.js';
import { askLine } from '../io/prompt.js';
import { renderMessage } from '../io/render.js';
import { normaliseAddress } from '../schemas/address-normalize.js';
import { ELSEWHERE_OUTCOME } from '../schemas/codes.js';
import { deliveredAddressSchema } from '../schemas/history.js';
import type { DeliveredAddress } from '../schemas/history.js';
import { validate } from '../schemas/validate.js';
import type { FlagName } from '../schemas/flag-name.js';
import { issuesToUsageError } from './flags.js';

const ANSWERED_FLAGS: Readonly<Record<string, FlagName>> = {
  delivered_postal_code: '--delivered-postal-code',
  delivered_number: '--delivered-number',
  delivered_addition: '--delivered-addition',
};

const ADDRESS_FLAGS = '--delivered-country, --delivered-postal-code and --delivered-number';

/**
 * `attempts add --outcome delivered_elsewhere` with no delivered address: on a terminal, asks for
 * it (the spec allows only NL addresses, so the country is not asked); off a terminal, the attempt
 * is sent as the spec allows, with a warning on stderr. `--without-address` says it is meant.
 * Resolves to the address to send, or undefined to send none.
 */
export async function deliveredElsewhereAddress(
  body: Readonly<Record<string, unknown>>,
  withoutAddress: boolean,
  ctx: Context,
): Promise<DeliveredAddress | undefined> {
  if (body.outcome !== ELSEWHERE_OUTCOME || body.delivered !== undefined || withoutAddress) return undefined;
  if (!(ctx.io.stdinIsTTY && ctx.io.stderrIsTTY)) {
    await renderMessage(
      ctx.io,
      `delivered_elsewhere without a delivered address: the parcel closes for good with no address recorded (give ${ADDRESS_FLAGS}, or --without-address when that is meant)`,
      'warn',
    );
    return undefined;
  }
  ctx.io.stderr.write('Delivered elsewhere: where? (the parcel closes for good; an empty postcode sends it without an address)\n');
  const postcode = (await askLine(ctx.io, 'Delivered postcode (e.g. 1234AB): ')).trim();
  if (postcode === '') return undefined;
  const number = (await askLine(ctx.io, 'House number: ')).trim();
  const addition = (await askLine(ctx.io, 'Addition (Enter for none): ')).trim();
  const address = normaliseAddress(
    { delivered_country: 'NL', delivered_postal_code: postcode, delivered_number: number, ...(addition === '' ? {} : { delivered_addition: addition }) },
    'delivered_country',
    'delivered_postal_code',
  );
  const checked = validate(deliveredAddressSchema, address);
  // The answers stand for the flags that would have given them.
  if (!checked.ok) throw issuesToUsageError(checked.issues, ANSWERED_FLAGS, 'the delivered address');
  return checked.value;
}
