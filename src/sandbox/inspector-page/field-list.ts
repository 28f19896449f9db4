/** The fields a parcel's detail shows, in order: its id and organisation, the field table's fields (with their units), its times. */
import { PARCEL_FIELDS } from '../../schemas/parcel-fields.js';

export interface DetailField {
  name: string;
  /** The unit a value is shown with (`1200 g`); times are shown as local times. */
  unit?: string;
  time: boolean;
}

export const DETAIL_FIELDS: readonly DetailField[] = [
  { name: 'entry_id', time: false },
  { name: 'org_id', time: false },
  ...PARCEL_FIELDS.map((f): DetailField => (f.kind === 'integer' && 'unit' in f ? { name: f.name, unit: f.unit, time: false } : { name: f.name, time: f.kind === 'time' })),
  { name: 'created_at', time: true },
  { name: 'updated_at', time: true },
];
