import { describe, expect, it } from 'vitest';
import { cellValue, columnsFor, getPath, pickFields } from '../../src/io/fields.js';

const parcel = {
  courier: 'DHL',
  status: 2,
  entry_id: 'u-1',
  delivered: { delivered_city: 'Utrecht', delivered_number: '5' },
  addition: null,
};

describe('pickFields', () => {
  it('returns the record unchanged without fields', () => {
    expect(pickFields(parcel, undefined)).toBe(parcel);
    expect(pickFields(parcel, [])).toBe(parcel);
  });
  it('narrows in the order given, keeping null values', () => {
    expect(pickFields(parcel, ['status', 'entry_id', 'addition'])).toEqual({ status: 2, entry_id: 'u-1', addition: null });
    expect(Object.keys(pickFields(parcel, ['status', 'entry_id']) as object)).toEqual(['status', 'entry_id']);
  });
  it('supports dotted paths, keeping the nesting', () => {
    expect(pickFields(parcel, ['entry_id', 'delivered.delivered_city'])).toEqual({
      entry_id: 'u-1',
      delivered: { delivered_city: 'Utrecht' },
    });
  });
  it('leaves unknown fields out instead of failing', () => {
    expect(pickFields(parcel, ['nope', 'delivered.nope', 'status.x'])).toEqual({});
  });
  it('narrows arrays item by item and leaves primitives alone', () => {
    expect(pickFields([parcel, { status: 1 }], ['status'])).toEqual([{ status: 2 }, { status: 1 }]);
    expect(pickFields(42, ['status'])).toBe(42);
  });
  it('prefers an own key containing a dot', () => {
    expect(getPath({ 'a.b': 1, a: { b: 2 } }, 'a.b')).toBe(1);
    expect(getPath({ a: { b: 2 } }, 'a.b')).toBe(2);
  });
});

describe('columnsFor', () => {
  it('uses --fields exactly (deduplicated)', () => {
    expect(columnsFor([parcel], ['courier', 'nope', 'courier'])).toEqual(['courier', 'nope']);
  });
  it('puts entry_id first and status second, rest in first-seen order', () => {
    expect(columnsFor([parcel])).toEqual(['entry_id', 'status', 'courier', 'delivered', 'addition']);
  });
  it('unions keys across the first items', () => {
    expect(columnsFor([{ b: 1 }, { a: 2, b: 3 }, { c: 4 }])).toEqual(['b', 'a', 'c']);
  });
  it('works with any field names: id-like keys first', () => {
    expect(columnsFor([{ name: 'x', state: 'ok', courier_id: 7, id: 3 }])).toEqual(['id', 'courier_id', 'name', 'state']);
    expect(columnsFor([{ code: 'A', label: 'B' }])).toEqual(['code', 'label']);
  });
  it('non-object items give a value column; no items no columns', () => {
    expect(columnsFor(['a', 'b'])).toEqual(['value']);
    expect(columnsFor([])).toEqual([]);
    expect(cellValue('a', 'value')).toBe('a');
    expect(cellValue(parcel, 'delivered.delivered_number')).toBe('5');
  });
});
