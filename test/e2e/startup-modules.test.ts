import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_API_KEY, startSandbox } from '../../src/sandbox/index.js';
import { binaryEnv, parcels } from '../helpers/spawn.js';

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let dir: string;
beforeAll(async () => {
  sandbox = await startSandbox({ db: ':memory:', port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'startup-modules-'));
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('what a request command loads', () => {
  it('a get through the built CLI never loads node:http2 (undici requires its HTTP/2 half only when called)', async () => {
    const created = await fetch(`${sandbox.url}/deliveries/v1/parcels`, {
      method: 'POST',
      headers: { authorization: `Bearer ${DEMO_API_KEY}`, 'content-type': 'application/json', 'idempotency-key': 'startup-modules-1' },
      body: JSON.stringify({ courier: 'DEMO-BIKE', country: 'NL', postal_code: '1234AB', number: '1' }),
    });
    const id = ((await created.json()) as { data: { entry_id: string } }).data.entry_id;
    const report = join(dir, 'modules.txt');
    const preload = join(dir, 'report-modules.cjs');
    writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)}, process.moduleLoadList.join('\\n')));\n`);
    const env = binaryEnv({ PARCELS_BASE_URL: sandbox.url, PARCELS_API_KEY: DEMO_API_KEY, NODE_OPTIONS: `--require ${preload}` });
    const result = await parcels(['get', id, '--json'], { env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ entry_id: id });
    const loaded = readFileSync(report, 'utf8').split('\n');
    expect(loaded).toContain('NativeModule net');
    expect(loaded.filter((m) => /\bhttp2\b/.test(m))).toEqual([]);
  });
});
