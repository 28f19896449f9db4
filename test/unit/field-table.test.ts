/**
 * The field table (src/schemas/parcel-fields.ts) is where a parcel field's unit and the sandbox's
 * bounds are written once: change one bound and one unit there, and the sandbox's 422, `GET
 * /reference` (and `parcels reference`), the inspector's field list and `create --help` all follow.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as FieldTable from '../../src/schemas/parcel-fields.js';
import type { ParcelFieldFact, ParcelFieldName } from '../../src/schemas/parcel-fields.js';

vi.mock('../../src/schemas/parcel-fields.js', async (importOriginal) => {
  const table = await importOriginal<typeof FieldTable>();
  const fields = table.PARCEL_FIELDS.map((f) => (f.name === 'parcel_weight' ? { ...f, unit: 'kg', bounds: { min: 0, max: 5000 } } : f));
  return { ...table, PARCEL_FIELDS: fields, parcelField: (name: ParcelFieldName): ParcelFieldFact => fields.find((f) => f.name === name) as ParcelFieldFact };
});

const { DEMO_API_KEY, startSandbox } = await import('../../src/sandbox/index.js');
const { DETAIL_FIELDS } = await import('../../src/sandbox/inspector-page/field-list.js');
const { runCli, tempConfigDir } = await import('../helpers/cli.js');

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
beforeAll(async () => {
  sandbox = await startSandbox({ db: ':memory:' });
});
afterAll(async () => {
  await sandbox.close();
});

const env = (): NodeJS.ProcessEnv => ({ PARCELS_CONFIG_DIR: tempConfigDir(), PARCELS_BASE_URL: sandbox.url, PARCELS_API_KEY: DEMO_API_KEY });

describe('one bound and one unit changed in the field table', () => {
  it("the sandbox's 422 states the new bound", async () => {
    const r = await runCli(['create', '--courier', 'DEMO-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '1', '--weight', '6000', '--json'], { env: env() });
    expect(r.code, r.stderr).toBe(6);
    expect(JSON.parse(r.stderr).error).toMatchObject({ status: 422, code: 'validation_failed', message: '--weight must be between 0 and 5000', field: '--weight' });
  });

  it('GET /reference and `parcels reference` give the new unit and bound', async () => {
    const r = await runCli(['reference', '--json'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    const units = JSON.parse(r.stdout).units;
    expect(units.weight).toBe('kg');
    expect(units.parcel_weight).toEqual({ unit: 'kg', min: 0, max: 5000 });
  });

  it("the inspector's field list shows the weight in the new unit", () => {
    expect(DETAIL_FIELDS.find((f) => f.name === 'parcel_weight')).toEqual({ name: 'parcel_weight', unit: 'kg', time: false });
  });

  it('create --help says the new unit', async () => {
    const r = await runCli(['create', '--help'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/--weight <n> +parcel weight in kg \(integer\)\n/);
  });
});
