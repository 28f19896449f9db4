import * as z from 'zod/mini';
import { typeError, utf8Bytes } from '../../schemas/text.js';
import { check, requireObject } from './common.js';
import { defineHandler } from './types.js';

/** Request body of POST /deliveries/v1/address/validate (sandbox choice; the spec does not show it). */
const addressSchema = z.strictObject({
  country: z.string({ error: typeError('must be a string') }),
  postal_code: z.string({ error: typeError('must be a string') }),
  number: z.string({ error: typeError('must be a string') }),
  addition: z.optional(z.string({ error: typeError('must be a string') })),
});

const POSTCODE = /^([1-9][0-9]{3}) ?([A-Za-z]{2})$/;
const NUMBER = /^[1-9][0-9]{0,4}$/;
const ADDITION = /^[A-Za-z0-9 -]{0,16}$/;

/**
 * Checks the shape of a Dutch address; an address that is not Dutch or not well-formed is a
 * result (`valid: false` with issues), not an error. Only malformed requests are errors (400/422).
 */
export const validateAddress = defineHandler({
  validate: (ctx) => check(addressSchema, requireObject(ctx.body)),
  run(_ctx, a) {
    const issues: Array<{ field: string; message: string }> = [];
    const country = a.country.trim().toUpperCase();
    if (country !== 'NL') issues.push({ field: 'country', message: 'only Dutch addresses (NL) can be checked' });
    const pc = POSTCODE.exec(a.postal_code.trim());
    if (!pc) issues.push({ field: 'postal_code', message: 'must be a Dutch postcode: four digits (not starting with 0) and two letters, e.g. 1234AB' });
    const number = a.number.trim();
    if (!NUMBER.test(number)) issues.push({ field: 'number', message: 'must be a house number from 1 to 99999' });
    const addition = (a.addition ?? '').trim();
    if (!ADDITION.test(addition) || utf8Bytes(addition) > 16) {
      issues.push({ field: 'addition', message: 'must be at most 16 letters, digits, spaces or hyphens' });
    }
    const valid = issues.length === 0;
    return {
      status: 200,
      data: {
        valid,
        normalized: valid
          ? { country, postal_code: `${pc?.[1]}${pc?.[2]?.toUpperCase()}`, number, addition: addition.toUpperCase() }
          : null,
        issues,
      },
    };
  },
});
