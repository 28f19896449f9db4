import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { etagLogPath, openEtagCache } from '../../src/config/etags.js';

let dir: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'parcels-etags-'));
  env = { PARCELS_CONFIG_DIR: dir };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const lines = (path: string): string[] => readFileSync(path, 'utf8').split('\n').filter((l) => l !== '');

describe('ETag cache', () => {
  it('keeps ETags verbatim, quotes and weak prefix included; last write wins; delete tombstones', async () => {
    const cache = openEtagCache(env, 'default');
    expect(await cache.get('p1')).toBeUndefined();
    await cache.set('p1', '"abc"');
    await cache.set('p2', 'W/"x \\"y\\""');
    await cache.set('p1', '"def"');
    expect(await cache.get('p1')).toBe('"def"');
    expect(await cache.get('p2')).toBe('W/"x \\"y\\""');
    await cache.delete('p1');
    expect(await cache.get('p1')).toBeUndefined();
    expect(lines(cache.path)).toEqual([
      '{"id":"p1","etag":"\\"abc\\""}',
      '{"id":"p2","etag":"W/\\"x \\\\\\"y\\\\\\"\\""}',
      '{"id":"p1","etag":"\\"def\\""}',
      '{"id":"p1","etag":null}',
    ]);
    expect(statSync(cache.path).mode & 0o777).toBe(0o600);
    // A fresh instance (another process) reads the same state.
    const again = openEtagCache(env, 'default');
    expect(await again.get('p1')).toBeUndefined();
    expect(await again.get('p2')).toBe('W/"x \\"y\\""');
  });

  it('is per profile, in a file apart from config.json', async () => {
    await openEtagCache(env, 'a').set('p', '"1"');
    expect(await openEtagCache(env, 'b').get('p')).toBeUndefined();
    expect(etagLogPath(env, 'a')).toBe(join(dir, 'etags', 'a.log'));
    expect(etagLogPath(env, '../x')).toBe(join(dir, 'etags', '%2E.%2Fx.log'));
  });

  it('sees appends made by another instance (tail read)', async () => {
    const one = openEtagCache(env, 'default');
    const two = openEtagCache(env, 'default');
    await one.set('p', '"1"');
    expect(await two.get('p')).toBe('"1"');
    await one.set('p', '"2"');
    expect(await two.get('p')).toBe('"2"');
  });

  it('appends one line per set and compacts past twice the bound to the most recent ids', async () => {
    const cache = openEtagCache(env, 'default', { maxEntries: 5 });
    for (let i = 1; i <= 10; i++) await cache.set(`p${i}`, `"v${i}"`);
    expect(lines(cache.path)).toHaveLength(10);
    await cache.set('p11', '"v11"'); // 11 lines > 2 × 5 → compact to the 5 newest
    expect(lines(cache.path)).toEqual(['p7', 'p8', 'p9', 'p10', 'p11'].map((id) => JSON.stringify({ id, etag: `"v${id.slice(1)}"` })));
    expect(statSync(cache.path).mode & 0o777).toBe(0o600);
    expect(await cache.get('p6')).toBeUndefined();
    expect(await cache.get('p11')).toBe('"v11"');
    // A re-set id counts as recent.
    await cache.set('p7', '"v7b"');
    for (let i = 12; i <= 16; i++) await cache.set(`p${i}`, `"v${i}"`);
    expect(lines(cache.path).map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(['p12', 'p13', 'p14', 'p15', 'p16']);
    const fresh = openEtagCache(env, 'default', { maxEntries: 5 });
    expect(await fresh.get('p16')).toBe('"v16"');
    expect(await fresh.get('p7')).toBeUndefined();
  });

  it('stays bounded under 10,000+ writes with the default bound', async () => {
    const cache = openEtagCache(env, 'bulk');
    await Promise.all(Array.from({ length: 20_001 }, (_, i) => cache.set(`id-${i}`, `"e${i}"`)));
    const count = lines(cache.path).length;
    expect(count).toBe(10_000);
    expect(await cache.get('id-20000')).toBe('"e20000"');
    expect(await cache.get('id-10001')).toBe('"e10001"');
    expect(await cache.get('id-10000')).toBeUndefined();
  });

  it('skips a torn or foreign line', async () => {
    const cache = openEtagCache(env, 'default');
    await cache.set('a', '"1"');
    appendFileSync(cache.path, '{"id":"b","et\n[1]\n');
    await cache.set('c', '"3"');
    const fresh = openEtagCache(env, 'default');
    expect(await fresh.get('a')).toBe('"1"');
    expect(await fresh.get('c')).toBe('"3"');
    expect(await fresh.get('b')).toBeUndefined();
  });
});
