/**
 * Parcel-id completion on the built CLI remembers the target id it hashed
 * (src/completions/target-ids.ts), so only the first key press for a target loads node:crypto. A
 * preload (through NODE_OPTIONS, as a user's own would be) reports at exit whether node:crypto was
 * loaded.
 */
import { lstatSync, mkdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { targetId } from '../../src/config/target.js';
import { tempConfigDir } from '../helpers/cli.js';
import { binaryEnv, parcels } from '../helpers/spawn.js';

const BASE_URL = 'https://api.memo.example/v1/';
const IDS = ['0b9d7f4e-54c1-4a8e-9a51-4f1f2a3b4c5d', '7c2e9a10-3d4b-4e5f-8a6b-7c8d9e0f1a2b'];

const probe = join(tempConfigDir(), 'crypto-probe.cjs');
writeFileSync(probe, "process.on('exit', () => require('fs').writeSync(2, `crypto loaded: ${process.moduleLoadList.includes('NativeModule crypto')}\\n`));\n");

/** A config dir whose ETag log for BASE_URL names IDS (the second read last). */
function configWithIds(): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = tempConfigDir();
  mkdirSync(join(dir, 'etags'), { recursive: true });
  writeFileSync(join(dir, 'etags', `${targetId({ baseUrl: BASE_URL })}.log`), IDS.map((id) => `${JSON.stringify({ id, etag: '"v1"' })}\n`).join(''));
  return { dir, env: binaryEnv({ PARCELS_CONFIG_DIR: dir, PARCELS_BASE_URL: BASE_URL, NODE_OPTIONS: `--require ${probe}` }) };
}

const complete = (env: NodeJS.ProcessEnv) => parcels(['__complete', 'get', ''], { env });
const MEMO = 'completion-targets.json';

describe('the target ids completion remembers', () => {
  it('hashes a target once: the first completion loads node:crypto and writes the memo (0600), the next ones do not', async () => {
    const { dir, env } = configWithIds();
    const first = await complete(env);
    expect(first).toEqual({ code: 0, stdout: `${IDS[1]}\n${IDS[0]}\n`, stderr: 'crypto loaded: true\n' });
    expect(JSON.parse(readFileSync(join(dir, MEMO), 'utf8'))).toEqual({ 'api https://api.memo.example/v1': targetId({ baseUrl: BASE_URL }) });
    expect(statSync(join(dir, MEMO)).mode & 0o777).toBe(0o600);

    const again = await complete(env);
    expect(again).toEqual({ code: 0, stdout: `${IDS[1]}\n${IDS[0]}\n`, stderr: 'crypto loaded: false\n' });
    // The same service written another way (`HTTPS://API.memo.example:443/v1`) is the same entry.
    const sameService = await complete({ ...env, PARCELS_BASE_URL: 'HTTPS://API.memo.example:443/v1' });
    expect(sameService.stderr).toBe('crypto loaded: false\n');
    expect(sameService.stdout).toBe(`${IDS[1]}\n${IDS[0]}\n`);
  });

  it('a damaged memo or an entry of the wrong shape is hashed again and rewritten', async () => {
    const { dir, env } = configWithIds();
    writeFileSync(join(dir, MEMO), '{"api https://api.memo.example/v1":');
    expect(await complete(env)).toEqual({ code: 0, stdout: `${IDS[1]}\n${IDS[0]}\n`, stderr: 'crypto loaded: true\n' });
    writeFileSync(join(dir, MEMO), JSON.stringify({ 'api https://api.memo.example/v1': '../../etc/passwd', 'api https://other.example': 'sandbox-0123456789abcdef' }));
    expect(await complete(env)).toEqual({ code: 0, stdout: `${IDS[1]}\n${IDS[0]}\n`, stderr: 'crypto loaded: true\n' });
    // The entry of the wrong shape is dropped; the one of another target (shape valid) stays.
    expect(JSON.parse(readFileSync(join(dir, MEMO), 'utf8'))).toEqual({
      'api https://other.example': 'sandbox-0123456789abcdef',
      'api https://api.memo.example/v1': targetId({ baseUrl: BASE_URL }),
    });
  });

  it('a link where the memo goes is neither followed nor replaced: completion still answers, hashing each time', async () => {
    const { dir, env } = configWithIds();
    const elsewhere = join(tempConfigDir(), 'elsewhere.json');
    writeFileSync(elsewhere, 'untouched\n');
    symlinkSync(elsewhere, join(dir, MEMO));
    for (let run = 0; run < 2; run++) expect(await complete(env)).toEqual({ code: 0, stdout: `${IDS[1]}\n${IDS[0]}\n`, stderr: 'crypto loaded: true\n' });
    expect(lstatSync(join(dir, MEMO)).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(dir, MEMO))).toBe(elsewhere);
    expect(readFileSync(elsewhere, 'utf8')).toBe('untouched\n');
  });
});
