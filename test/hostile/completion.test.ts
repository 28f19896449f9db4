/**
 * A service's courier list planted with shell code: completion never offers it, in any shell. The
 * scripts of all three shells show what `parcels __complete` prints; bash is also run for real.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { answerCompletion } from '../../src/completions/answer.js';
import { writeCached } from '../../src/config/cache.js';
import { COURIERS_CACHE_NAME } from '../../src/completions/values.js';
import { targetId } from '../../src/config/target.js';
import { tempConfigDir } from '../helpers/cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BASE = 'https://api.hostile.example';
const HOSTILE = ['D$(touch${IFS}/tmp/x)`id`;id', "A'B", 'A"B', 'A;id', 'A|id', 'A&id', 'A>x', 'A*', '~root', 'A,B{c,d}', 'A!x', 'A#x', 'A\\x', 'A B', 'A\u001b]0;x\u0007', '{1..3}', '=ls', '%self'];

async function planted(): Promise<NodeJS.ProcessEnv> {
  const env = { PARCELS_CONFIG_DIR: tempConfigDir() };
  await writeCached(env, targetId({ baseUrl: BASE }), COURIERS_CACHE_NAME, [...HOSTILE, 'SAFE-1', 'Åland_2'].map((code) => ({ code, name: `courier ${code}` })));
  return env;
}

describe('completion offers server values only in a shape every shell takes as it is', () => {
  it('__complete drops every courier code carrying shell syntax', async () => {
    const env = await planted();
    expect(answerCompletion(['create', '--base-url', BASE, '--courier', ''], env)).toBe('SAFE-1\tcourier SAFE-1\nÅland_2\tcourier Åland_2\n');
    expect(answerCompletion(['create', '--base-url', BASE, '--courier=D'], env)).toBe('');
  });

  it.skipIf(spawnSync('sh', ['-c', 'command -v bash']).status !== 0)('bash, sourcing the script with the built binary: COMPREPLY holds only the safe codes', async () => {
    const env = await planted();
    const bin = join(tempConfigDir(), 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'parcels'), `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin', 'parcels.js')}" "$@"\n`);
    chmodSync(join(bin, 'parcels'), 0o755);
    const script = `source '${join(ROOT, 'completions', 'parcels.bash')}'; COMP_WORDS=(parcels create --base-url '${BASE}' --courier ''); COMP_CWORD=5; _parcels_complete; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const out = execFileSync('bash', ['--norc', '--noprofile', '-c', script], { env: { ...env, PATH: `${bin}:${process.env.PATH ?? ''}`, NO_COLOR: '1' }, encoding: 'utf8' });
    expect(out).toBe('SAFE-1\nÅland_2\n');
  });
});
