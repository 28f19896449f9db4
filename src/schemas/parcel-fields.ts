/**
 * The parcel's fields (spec 2.2), written once. The zod schemas (parcel.ts), the sandbox's row
 * mapping (sandbox/store) and its bounds (sandbox/rules.ts), the units of `GET /reference`, the
 * inspector's field list, bulk input's integer cells, the create flags and their help, `patch
 * --set/--clear` and the flag named in an error all derive from this table: a new field is one row here.
 */
import { MIN_OBSERVATION_TIME } from './observation-window.js';

/** Time slots end before 2100-01-01 (Unix seconds): the sandbox's bound. */
export const MAX_SLOT_TIME = 4_102_444_800;

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
  /** The unit of an integer or time value (`GET /reference` says it; help and records show it). */
  readonly unit?: string;
  /**
   * What the sandbox accepts: a value range (integers, times) or a length in UTF-8 bytes (text).
   * The spec leaves bounds "not shown", so the CLI never refuses by them (docs/sandbox.md).
   */
  readonly bounds?: { readonly min: number; readonly max: number };
}

export const PARCEL_FIELDS = [
  { name: 'courier', kind: 'text', required: true, bounds: { min: 1, max: 64 }, what: 'registered courier code', flag: 'courier', placeholder: '<code>', description: 'registered courier code' },
  { name: 'country', kind: 'text', required: true, what: 'country code', flag: 'country', placeholder: '<code>', description: 'country code, e.g. NL' },
  { name: 'postal_code', kind: 'text', required: true, bounds: { min: 1, max: 16 }, what: 'postal code', flag: 'postal-code', placeholder: '<code>', address: true, description: 'postal code, e.g. 1234AB' },
  { name: 'number', kind: 'text', required: true, bounds: { min: 1, max: 16 }, what: 'house number as text', flag: 'number', placeholder: '<text>', address: true, description: 'house number as text' },
  { name: 'addition', kind: 'text', required: false, bounds: { min: 0, max: 16 }, flag: 'addition', placeholder: '<text>', address: true, description: 'house-number addition' },
  { name: 'parcel_length', kind: 'integer', required: false, unit: 'cm', bounds: { min: 0, max: 1000 }, flag: 'length', placeholder: '<n>', description: 'parcel length' },
  { name: 'parcel_width', kind: 'integer', required: false, unit: 'cm', bounds: { min: 0, max: 1000 }, flag: 'width', placeholder: '<n>', description: 'parcel width' },
  { name: 'parcel_height', kind: 'integer', required: false, unit: 'cm', bounds: { min: 0, max: 1000 }, flag: 'height', placeholder: '<n>', description: 'parcel height' },
  { name: 'parcel_weight', kind: 'integer', required: false, unit: 'g', bounds: { min: 0, max: 1_000_000 }, flag: 'weight', placeholder: '<n>', description: 'parcel weight' },
  {
    name: 'time_slot_period_start',
    kind: 'time',
    required: false,
    unit: 'unix_seconds',
    bounds: { min: MIN_OBSERVATION_TIME, max: MAX_SLOT_TIME },
    flag: 'slot-start',
    placeholder: '<time>',
    description: 'planned slot start: Unix seconds, ISO 8601 or "now"',
  },
  {
    name: 'time_slot_period_end',
    kind: 'time',
    required: false,
    unit: 'unix_seconds',
    bounds: { min: MIN_OBSERVATION_TIME, max: MAX_SLOT_TIME },
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

/** A field's row by name. */
export function parcelField(name: ParcelFieldName): ParcelFieldFact {
  return PARCEL_FIELDS.find((f) => f.name === name) as ParcelFieldFact;
}

/**
 * A field flag's help: the field's description, its unit when it has one, and `(integer)` for
 * integers; for `create`, `(required)` when required; for `patch`, the new value of the field.
 */
export function parcelFieldHelp(field: ParcelFieldFact, command: 'create' | 'patch' = 'create'): string {
  const unit = field.kind === 'integer' && field.unit !== undefined ? ` in ${field.unit}` : '';
  const integer = field.kind === 'integer' ? ' (integer)' : '';
  if (command === 'patch') return `new ${field.description}${unit}${integer}`;
  return `${field.description}${unit}${integer}${field.required ? ' (required)' : ''}`;
}

/**
 * Which parcel a bulk line is about: its courier and where it goes (the required fields). A line
 * at the same number with these the same as its batch's line there, and other fields changed, is
 * that line edited (src/bulk/pairing.ts).
 */
export const PAIRING_PARCEL_FIELDS: readonly ParcelFieldName[] = REQUIRED_PARCEL_FIELDS;
