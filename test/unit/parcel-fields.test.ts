import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readInput } from '../../src/bulk/input.js';
import { longFlag } from '../../src/definitions/definition.js';
import { createCommands } from '../../src/definitions/create.js';
import { FLAG_FOR_FIELD } from '../../src/args/field-flags.js';
import { clearedValue, fieldName } from '../../src/args/patch-fields.js';
import { VIEWS } from '../../src/io/views/resources.js';
import { openSqliteRepository } from '../../src/sandbox/store/sqlite.js';
import type { ParcelFields } from '../../src/sandbox/store/types.js';
import { PARCEL_FIELDS } from '../../src/schemas/parcel-fields.js';
import { parcelCreateSchema, parcelPatchSchema } from '../../src/schemas/parcel.js';
import { validate } from '../../src/schemas/validate.js';

// Not NL: a Dutch address adds the postcode rule, which is not a field's type.
const REQUIRED = { courier: 'DEMO-BIKE', country: 'BE', postal_code: '1000', number: '10' };
/** A value of each field's kind, and one of the wrong kind. */
const good = (kind: string) => (kind === 'text' ? 'x7' : 7);
const bad = (kind: string) => (kind === 'text' ? 7 : 'x7');

const dir = mkdtempSync(join(tmpdir(), 'parcel-fields-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each(PARCEL_FIELDS.map((f) => [f.name, f] as const))('the table row %s', (name, f) => {
  it('is typed by the create schema: its kind passes, the wrong kind is refused at its path', () => {
    expect(validate(parcelCreateSchema, { ...REQUIRED, [name]: good(f.kind) }).ok).toBe(true);
    const refused = validate(parcelCreateSchema, { ...REQUIRED, [name]: bad(f.kind) });
    expect(refused.ok ? [] : refused.issues.map((i) => i.path)).toEqual([name]);
  });

  it(f.required ? 'is required on create' : 'is optional on create', () => {
    const rest: Record<string, unknown> = { ...REQUIRED };
    delete rest[name];
    expect(validate(parcelCreateSchema, rest).ok).toBe(!f.required);
  });

  it('is typed by the change schema, and cleared with "" or null as patch --clear sends', () => {
    expect(validate(parcelPatchSchema, { [name]: good(f.kind) }).ok).toBe(true);
    expect(validate(parcelPatchSchema, { [name]: bad(f.kind) }).ok).toBe(false);
    expect(clearedValue(name)).toBe(f.kind === 'text' ? '' : null);
    expect(validate(parcelPatchSchema, { [name]: null }).ok).toBe(!f.required);
  });

  it(`has the create flag --${f.flag}, named in errors and taken by patch --set/--clear`, () => {
    const specs = Object.values(createCommands.create.flags).filter((spec) => longFlag(spec) === `--${f.flag}`);
    expect(specs.map((spec) => spec.type)).toEqual([f.kind === 'integer' ? 'int' : 'string']);
    expect(FLAG_FOR_FIELD[name]).toBe(`--${f.flag}`);
    expect(fieldName(f.flag, '--set')).toBe(name);
    expect(fieldName(name, '--clear')).toBe(name);
  });

  it('is a CSV column: a cell of digits is a number exactly when the field is not text', async () => {
    const file = join(dir, `${name}.csv`);
    writeFileSync(file, `${name}\n42\n`);
    const lines = [];
    for await (const batch of readInput(file, 'csv', { bareIds: false })) lines.push(...batch);
    expect(lines.map((l) => l.record)).toEqual([{ [name]: f.kind === 'text' ? '42' : 42 }]);
  });
});

describe('the sandbox stores every field of the table', () => {
  it('a created parcel reads back with each field as given (a new row needs its column in store/schema.ts)', () => {
    const repo = openSqliteRepository(':memory:');
    const fields = Object.fromEntries(PARCEL_FIELDS.map((f) => [f.name, f.kind === 'text' ? `${f.name}-text` : 1000])) as ParcelFields;
    repo.createParcel('org_1', 'id-1', fields, 1_800_000_000);
    expect(repo.getParcel('org_1', 'id-1')).toMatchObject(fields);
  });
});

describe('the parcel view', () => {
  it('joins the address parts of the table in its ADDRESS column, in the table\'s order', () => {
    const address = VIEWS.parcels.columns.find((c) => c.header === 'ADDRESS');
    const parcel = { courier: 'DEMO-BIKE', country: 'NL', postal_code: '1234AB', number: '10', addition: 'B', parcel_weight: 5 };
    expect(address?.cell(parcel, { now: 0, colour: false })).toBe('1234AB 10 B');
  });
});
