/** Attacks on what the CLI writes: spreadsheet formulas in CSV, a system file named as a seed or body. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import type { HostileServer } from '../helpers/hostile-server.js';
import { startHostileServer } from '../helpers/hostile-server.js';

const ID = '0b0c6a52-1d7e-4f0e-9a4b-8c2d3e4f5a61';
let server: HostileServer;
beforeAll(async () => {
  server = await startHostileServer(() => ({
    status: 200,
    body: {
      data: {
        parcels: [
          { entry_id: ID, courier: '=HYPERLINK("https://evil.example","x")', addition: '@SUM(1+1)', postal_code: '+31', number: '-2', street: '\tx', city: '\rx', weight: -5 },
        ],
        next_cursor: null,
      },
    },
  }));
});
afterAll(() => server.close());

describe('CSV output never carries a live spreadsheet formula', () => {
  it('text cells starting with = + - @ tab or CR get a quote in front and are quoted; numbers stay', async () => {
    const env = { PARCELS_CONFIG_DIR: tempConfigDir(), PARCELS_BASE_URL: server.url, PARCELS_API_KEY: 'hostile-test-key-0001' };
    const r = await runCli(['list', '-o', 'csv', '--fields', 'entry_id,courier,addition,postal_code,number,street,city,weight'], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      'entry_id,courier,addition,postal_code,number,street,city,weight\n' +
        `${ID},"'=HYPERLINK(""https://evil.example"",""x"")","'@SUM(1+1)","'+31","'-2","'\tx","'\rx",-5\n`,
    );
    // Machines get the raw values from JSON.
    const raw = await runCli(['list', '-o', 'ndjson', '--fields', 'addition'], { env });
    expect(raw.stdout).toBe('{"addition":"@SUM(1+1)"}\n');
  });
});

describe('a file that is not JSON is never quoted back', () => {
  const SECRET = 'root:x:0:0:root:/root:/bin/bash\nsecret-line-of-a-system-file\n';

  it('sandbox serve --seed FILE: exit 2, says it is not JSON, no byte of the file', async () => {
    const dir = tempConfigDir();
    const file = join(dir, 'passwd');
    writeFileSync(file, SECRET);
    const r = await runCli(['sandbox', 'serve', '--port', '0', '--db', ':memory:', '--seed', file], { env: { PARCELS_CONFIG_DIR: dir } });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`Error: --seed: seed file ${file} is not JSON (it does not start with a JSON value); a seed is one JSON object, see docs/sandbox.md\n`);
  });

  it('--data @FILE: exit 2 without the file\'s text', async () => {
    const dir = tempConfigDir();
    const file = join(dir, 'passwd');
    writeFileSync(file, SECRET);
    const r = await runCli(['create', '--data', `@${file}`, '--dry-run'], { env: { PARCELS_CONFIG_DIR: dir, PARCELS_BASE_URL: server.url } });
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('root');
    expect(r.stderr).toContain('--data is not valid JSON (it does not start with a JSON value)');
  });
});
