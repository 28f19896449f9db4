/**
 * The one normalisation rule the CLI applies to an address before sending it (every flag, every
 * file column): a country code is upper-cased (`nl` → `NL`); a Dutch postcode (country NL) loses its
 * spaces and is upper-cased (`1234 ab` → `1234AB`); another country's postcode is only trimmed. The
 * sandbox validates what it receives with the same pattern and never rewrites it.
 */

export function normaliseCountry(country: string): string {
  return country.trim().toUpperCase();
}

export function normalisePostcode(postcode: string, country: unknown): string {
  return typeof country === 'string' && normaliseCountry(country) === 'NL' ? postcode.replace(/\s+/g, '').toUpperCase() : postcode.trim();
}

/** An address's country and postal code fields (by name, e.g. `country`/`postal_code` or the `delivered_` ones), normalised; other fields as they are. */
export function normaliseAddress<T extends Record<string, unknown>>(fields: T, countryField: string, postcodeField: string): T {
  const country = fields[countryField];
  const postcode = fields[postcodeField];
  if (typeof country !== 'string' && typeof postcode !== 'string') return fields;
  const copy: Record<string, unknown> = { ...fields };
  if (typeof country === 'string') copy[countryField] = normaliseCountry(country);
  if (typeof postcode === 'string') copy[postcodeField] = normalisePostcode(postcode, country);
  return copy as T;
}
