/**
 * The parcel's fields (spec 2.2), written once. The zod schemas (parcel.ts), the sandbox's row
 * mapping (sandbox/store), bulk input's integer cells, the create flags, `patch --set/--clear` and
 * the flag named in an error all derive from this table: a new field is one row here.
 */

/** How a field's value is typed and read from a flag: text verbatim, an integer, a time, a named code. */
export type ParcelFieldKind = 'text' | 'integer' | 'time' | 'service';

export interface ParcelFieldFact {
  /** The field's name in request and response bodies, CSV headers and the sandbox's column. */
  readonly name: string;
  readonly kind: ParcelFieldKind;
  /** Required on create; never cleared by a change. */
  readonly required: boolean;
  /** The create flag without its dashes; also a short name `patch --set/--clear` accepts. */
  readonly flag: string;
  /** The flag's value placeholder in help. */
  readonly placeholder: string;
  /** Help text. */
  readonly description: string;
  /** What a required field must hold, as its type error says: "must be a string (what)". */
  readonly what?: string;
  /** A part of the address, joined in this order in the ADDRESS column of parcel tables. */
  readonly address?: true;
}

export const PARCEL_FIELDS = [
  { name: 'courier', kind: 'text', required: true, what: 'registered courier code', flag: 'courier', placeholder: '<code>', description: 'registered courier code' },
  { name: 'country', kind: 'text', required: true, what: 'country code', flag: 'country', placeholder: '<code>', description: 'country code, e.g. NL' },
  { name: 'postal_code', kind: 'text', required: true, what: 'postal code', flag: 'postal-code', placeholder: '<code>', address: true, description: 'postal code, e.g. 1234AB' },
  { name: 'number', kind: 'text', required: true, what: 'house number as text', flag: 'number', placeholder: '<text>', address: true, description: 'house number as text' },
  { name: 'addition', kind: 'text', required: false, flag: 'addition', placeholder: '<text>', address: true, description: 'house-number addition' },
  { name: 'parcel_length', kind: 'integer', required: false, flag: 'length', placeholder: '<n>', description: 'parcel length (integer)' },
  { name: 'parcel_width', kind: 'integer', required: false, flag: 'width', placeholder: '<n>', description: 'parcel width (integer)' },
  { name: 'parcel_height', kind: 'integer', required: false, flag: 'height', placeholder: '<n>', description: 'parcel height (integer)' },
  { name: 'parcel_weight', kind: 'integer', required: false, flag: 'weight', placeholder: '<n>', description: 'parcel weight (integer)' },
  {
    name: 'time_slot_period_start',
    kind: 'time',
    required: false,
    flag: 'slot-start',
    placeholder: '<time>',
    description: 'planned slot start: Unix seconds, ISO 8601 or "now"',
  },
  {
    name: 'time_slot_period_end',
    kind: 'time',
    required: false,
    flag: 'slot-end',
    placeholder: '<time>',
    description: 'planned slot end: Unix seconds, ISO 8601 or "now"',
  },
  {
    name: 'service_type',
    kind: 'service',
    required: false,
    flag: 'service-type',
    placeholder: '<code>',
    description: 'service code: a number, or its name from `parcels reference`',
  },
] as const satisfies readonly ParcelFieldFact[];

export type ParcelFieldRow = (typeof PARCEL_FIELDS)[number];
type Field = ParcelFieldRow;
export type ParcelFieldName = Field['name'];
export type RequiredParcelField = Extract<Field, { required: true }>['name'];
export type OptionalParcelField = Extract<Field, { required: false }>['name'];

/** A field's stored value: text or an integer (times and service codes are integers); optional ones are null when absent. */
export type ParcelFieldValues = {
  [F in Field as F['name']]: (F['kind'] extends 'text' ? string : number) | (F['required'] extends true ? never : null);
};

export const REQUIRED_PARCEL_FIELDS = PARCEL_FIELDS.filter((f) => f.required).map((f) => f.name) as readonly RequiredParcelField[];
export const OPTIONAL_PARCEL_FIELDS = PARCEL_FIELDS.filter((f) => !f.required).map((f) => f.name) as readonly OptionalParcelField[];

/** Fields whose value is an integer in a body (a CSV cell of digits becomes a number). */
export const INTEGER_PARCEL_FIELDS: readonly ParcelFieldName[] = PARCEL_FIELDS.filter((f) => f.kind !== 'text').map((f) => f.name);

/** The address parts a parcel table shows in one column, in order. */
export const ADDRESS_PARCEL_FIELDS: readonly ParcelFieldName[] = PARCEL_FIELDS.filter((f) => 'address' in f).map((f) => f.name);

/**
 * Which parcel a bulk line is about: its courier and where it goes (the required fields). A line
 * at the same number with these the same as its batch's line there, and other fields changed, is
 * that line edited (src/bulk/pairing.ts).
 */
export const PAIRING_PARCEL_FIELDS: readonly ParcelFieldName[] = REQUIRED_PARCEL_FIELDS;
