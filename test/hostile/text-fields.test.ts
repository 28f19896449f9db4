/**
 * One client of a shared sandbox tries to store escape sequences in parcel text for another's
 * terminal: the one text-field rule (src/schemas/text.ts) refuses C0/C1 control characters in the
 * sandbox's validation, in the create and change flags and in bulk files alike.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { CONTROL_TEXT_MESSAGE } from '../../src/schemas/text.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { KEY_A, TEST_SEED, call } from '../sandbox/helpers.js';

/** Window title, C1 CSI, a backspace, a tab, a vertical tab, DEL: each alone is refused. */
const CONTROLS = ['\u001b]0;pwned\u0007', '\u009b2J', 'a\u0008b', 'a\tb', 'a\u000bb', 'a\u007fb'];
const PARCEL = { courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number: '10' };

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: TEST_SEED });
});
afterAll(() => sandbox.close());

const env = (): NodeJS.ProcessEnv => ({ PARCELS_CONFIG_DIR: tempConfigDir(), PARCELS_BASE_URL: sandbox.url, PARCELS_API_KEY: KEY_A, NO_COLOR: '1' });

describe('no control character is stored in parcel text', () => {
  it('the sandbox answers 422 naming the field, for a create, a change and a delivered address', async () => {
    for (const text of CONTROLS) {
      const created = await call(sandbox.url, 'POST', '/deliveries/v1/parcels', { body: { ...PARCEL, addition: text }, idem: `idem-${CONTROLS.indexOf(text)}-create-0001` });
      expect(created.status).toBe(422);
      expect(JSON.stringify(created.body)).toContain(CONTROL_TEXT_MESSAGE);
    }
    const ok = await call(sandbox.url, 'POST', '/deliveries/v1/parcels', { body: PARCEL, idem: 'idem-plain-create-0001' });
    expect(ok.status).toBe(201);
    const id = (ok.body as { data: { entry_id: string } }).data.entry_id;
    const changed = await call(sandbox.url, 'PATCH', `/deliveries/v1/parcels/${id}`, { body: { number: '\u001b[2J' }, headers: { 'if-match': '*' } });
    expect(changed.status).toBe(422);
    const attempt = await call(sandbox.url, 'POST', `/deliveries/v1/parcels/${id}/attempts`, {
      body: { time_attempt: Math.floor(Date.now() / 1000), outcome: 2, delivered: { delivered_country: 'NL', delivered_postal_code: '1234AB', delivered_number: '1', delivered_city: 'A\u009b2J' } },
      idem: 'idem-attempt-0001',
    });
    expect(attempt.status).toBe(422);
  });

  it('create flags: exit 2 naming the flag, nothing sent', async () => {
    const r = await runCli(['create', '--courier', 'A-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '10', '--addition', '\u001b]0;pwned\u0007'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`Error: --addition ${CONTROL_TEXT_MESSAGE}\n`);
  });

  it('a bulk file: the line is invalid, the others are sent', async () => {
    const dir = tempConfigDir();
    const file = join(dir, 'in.ndjson');
    writeFileSync(file, [JSON.stringify({ ...PARCEL, number: '1' }), JSON.stringify({ ...PARCEL, number: '2', addition: '\u009b2J' })].join('\n') + '\n');
    const r = await runCli(['create', '--from', file], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('2 lines read: 1 created, 0 already done, 1 failed (1 invalid)');
    expect(r.stdout).toContain(CONTROL_TEXT_MESSAGE);
  });
});
