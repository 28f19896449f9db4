/**
 * The built binary's tables on a real pseudo-terminal (util-linux `script`, width set with
 * `stty cols`): 80 and 200 columns, colour on and off, give the same columns, with ids whole.
 */
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { FULL_KEY, TEST_SEED } from '../helpers/seed.js';
import { binaryEnv } from '../helpers/spawn.js';

const BIN = fileURLToPath(new URL('../../bin/parcels.js', import.meta.url));
const hasScript = spawnSync('script', ['--version']).status === 0;

let sandbox: RunningSandbox;
const ids: string[] = [];
beforeAll(async () => {
  sandbox = await startSandbox({ seed: TEST_SEED, db: ':memory:', port: 0 });
  for (const number of ['10', '11']) {
    const response = await fetch(`${sandbox.url}/deliveries/v1/parcels`, {
      method: 'POST',
      headers: { authorization: `Bearer ${FULL_KEY}`, 'content-type': 'application/json', 'idempotency-key': `views-pty-${number}` },
      body: JSON.stringify({ courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number }),
    });
    ids.push(((await response.json()) as { data: { entry_id: string } }).data.entry_id);
  }
});
afterAll(() => sandbox.close());

/** What a terminal `columns` wide shows of `parcels args…` (stdout only; stderr goes to /dev/null). */
function onPty(args: string[], columns: number, colour: boolean): Promise<string> {
  const quote = (a: string): string => `'${a.replace(/'/g, `'\\''`)}'`;
  const command = `stty cols ${columns}; ${[process.execPath, BIN, ...args].map(quote).join(' ')} 2>/dev/null`;
  const env = binaryEnv({ PARCELS_BASE_URL: sandbox.url, PARCELS_API_KEY: FULL_KEY, TERM: 'xterm-256color' });
  if (colour) delete env.NO_COLOR;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let screen = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (screen += c));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(screen) : reject(new Error(`exit ${code}: ${screen}`))));
    child.stdin.end();
  });
}

describe.skipIf(!hasScript)('tables on a real terminal', () => {
  it('parcels list: the same columns at 80 and 200 columns, colour on and off, ids whole', async () => {
    const screens: string[] = [];
    for (const columns of [80, 200]) {
      for (const colour of [true, false]) {
        const screen = await onPty(['list'], columns, colour);
        if (colour) expect(screen).toContain('\u001b[1mID\u001b[22m');
        else expect(screen).not.toContain('\u001b[');
        const lines = stripVTControlCharacters(screen).split(/\r?\n/).filter((l) => l !== '');
        expect(lines[0]?.split(/\s{2,}/)).toEqual(['ID', 'STATUS', 'COURIER', 'ADDRESS', 'AGE']);
        expect(lines.slice(1).map((l) => l.slice(0, 36))).toEqual(ids);
        for (const l of lines) expect(l.length).toBeLessThanOrEqual(columns);
        screens.push(lines.map((l) => l.replace(/(\d+[sm] ago|just now)$/, 'AGE')).join('\n'));
      }
    }
    expect(new Set(screens).size).toBe(1);
  });

  it('a 50-column terminal shortens the other columns and keeps each id whole', async () => {
    const lines = stripVTControlCharacters(await onPty(['list'], 50, false))
      .split(/\r?\n/)
      .filter((l) => l !== '');
    expect(lines.slice(1).map((l) => l.slice(0, 36))).toEqual(ids);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(50);
  });
});
