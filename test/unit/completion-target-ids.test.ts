import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REMEMBERED_TARGETS, rememberedTargetId, targetIdsPath } from '../../src/completions/target-ids.js';
import { targetId } from '../../src/config/target.js';
import { tempConfigDir } from '../helpers/cli.js';

describe('rememberedTargetId', () => {
  it('gives what targetId gives, for a base URL and for a sandbox database, from the hash and then from the memo', () => {
    const env = { PARCELS_CONFIG_DIR: tempConfigDir() };
    for (let round = 0; round < 2; round++) {
      expect(rememberedTargetId(env, { baseUrl: 'https://api.example.com/v1/' })).toBe(targetId({ baseUrl: 'https://api.example.com/v1' }));
      expect(rememberedTargetId(env, { sandboxDb: '/tmp/a/../b.db' })).toBe(targetId({ sandboxDb: '/tmp/b.db' }));
    }
    expect(JSON.parse(readFileSync(targetIdsPath(env), 'utf8'))).toEqual({
      'api https://api.example.com/v1': targetId({ baseUrl: 'https://api.example.com/v1' }),
      'sandbox /tmp/b.db': targetId({ sandboxDb: '/tmp/b.db' }),
    });
  });

  it('never takes an id of the other kind for a target', () => {
    const env = { PARCELS_CONFIG_DIR: tempConfigDir() };
    const db = '/tmp/kind.db';
    rememberedTargetId(env, { sandboxDb: db });
    // Planted under the sandbox's key: an api id is not a sandbox's.
    const planted = { [`sandbox ${db}`]: 'api-0123456789abcdef' };
    writeFileSync(targetIdsPath(env), JSON.stringify(planted));
    expect(rememberedTargetId(env, { sandboxDb: db })).toBe(targetId({ sandboxDb: db }));
  });

  it(`keeps the ${REMEMBERED_TARGETS} targets hashed last; using a remembered one writes nothing`, () => {
    const env = { PARCELS_CONFIG_DIR: tempConfigDir() };
    const urls = Array.from({ length: REMEMBERED_TARGETS + 8 }, (_, i) => `https://api${i}.example.com`);
    for (const baseUrl of urls) rememberedTargetId(env, { baseUrl });
    rememberedTargetId(env, { baseUrl: urls[10] as string });
    const kept = Object.keys(JSON.parse(readFileSync(targetIdsPath(env), 'utf8')) as object);
    expect(kept).toEqual(urls.slice(8).map((url) => `api ${url}`));
  });
});
