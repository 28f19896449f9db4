import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/config/atomic.js';
import { SymlinkError } from '../../src/config/own-file.js';
import { writeCached } from '../../src/config/cache.js';
import { etagLogPath, openEtagCache } from '../../src/config/etags.js';
import { configPath, updateConfig } from '../../src/config/store.js';
import { UsageError } from '../../src/errors.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'parcels-atomic-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const mode = (path: string): number => statSync(path).mode & 0o777;

describe('writeFileAtomic', () => {
  it('creates the file 0600 (and a missing directory 0700), replaces it whole, leaves no temp file', async () => {
    const path = join(dir, 'new', 'file.json');
    await writeFileAtomic(path, 'one');
    expect(readFileSync(path, 'utf8')).toBe('one');
    expect(mode(path)).toBe(0o600);
    expect(mode(join(dir, 'new'))).toBe(0o700);
    writeFileSync(path, 'loose', { mode: 0o644 });
    chmodSync(path, 0o644);
    await writeFileAtomic(path, 'two');
    expect(readFileSync(path, 'utf8')).toBe('two');
    expect(mode(path)).toBe(0o600);
    expect(readdirSync(join(dir, 'new'))).toEqual(['file.json']);
  });

  it('a cache write ({ durable: false }) is the same whole-file replacement: 0600, no temp file left, symlinks refused', async () => {
    const path = join(dir, 'cache', 'names.json');
    await writeFileAtomic(path, 'one', { durable: false });
    await writeFileAtomic(path, 'two', { durable: false });
    expect(readFileSync(path, 'utf8')).toBe('two');
    expect(mode(path)).toBe(0o600);
    expect(readdirSync(join(dir, 'cache'))).toEqual(['names.json']);
    const target = join(dir, 'elsewhere.txt');
    writeFileSync(target, 'precious');
    symlinkSync(target, join(dir, 'cache', 'link.json'));
    await expect(writeFileAtomic(join(dir, 'cache', 'link.json'), 'x', { durable: false })).rejects.toBeInstanceOf(SymlinkError);
    expect(readFileSync(target, 'utf8')).toBe('precious');
  });

  it('refuses to write through a symbolic link; the link and its target stay as they were', async () => {
    const target = join(dir, 'elsewhere.txt');
    writeFileSync(target, 'precious');
    const link = join(dir, 'link.txt');
    symlinkSync(target, link);
    const error = await writeFileAtomic(link, 'secret').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SymlinkError);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(`${link} is a symbolic link; refusing to write through it`);
    expect(readFileSync(target, 'utf8')).toBe('precious');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['elsewhere.txt', 'link.txt']);
  });
});

describe('every writer of config and data files uses it', () => {
  it('the config store refuses a symlinked config.json: the key never reaches the link target', async () => {
    const cfg = join(dir, 'cfg');
    mkdirSync(cfg);
    const target = join(dir, 'victim.json');
    writeFileSync(target, '{}');
    symlinkSync(target, join(cfg, 'config.json'));
    const env = { PARCELS_CONFIG_DIR: cfg };
    await expect(
      updateConfig(env, (c) => {
        c.profiles.default = { base_url: 'https://api.example.com', api_key: 'secret-key-123456' };
      }),
    ).rejects.toThrow(`${configPath(env)} is a symbolic link; refusing to read it`);
    expect(readFileSync(target, 'utf8')).toBe('{}');
  });

  it('a symlinked config directory is written into but its mode is never changed', async () => {
    const real = join(dir, 'shared');
    mkdirSync(real, { mode: 0o755 });
    chmodSync(real, 0o755);
    const cfg = join(dir, 'cfg-link');
    symlinkSync(real, cfg);
    await updateConfig({ PARCELS_CONFIG_DIR: cfg }, (c) => {
      c.profiles.default = { output: 'json' };
    });
    expect(mode(real)).toBe(0o755);
    expect(mode(join(real, 'config.json'))).toBe(0o600);
  });

  it('the TTL cache refuses a symlinked cache file', async () => {
    const env = { PARCELS_CONFIG_DIR: dir };
    mkdirSync(join(dir, 'cache', 't'), { recursive: true });
    const target = join(dir, 'victim');
    writeFileSync(target, 'x');
    symlinkSync(target, join(dir, 'cache', 't', 'names.json'));
    await expect(writeCached(env, 't', 'names', { a: 1 })).rejects.toBeInstanceOf(SymlinkError);
    expect(readFileSync(target, 'utf8')).toBe('x');
  });

  it('the ETag log refuses a symlinked log file, and its compaction is atomic (no temp file left)', async () => {
    const env = { PARCELS_CONFIG_DIR: dir };
    mkdirSync(join(dir, 'etags'));
    const target = join(dir, 'victim');
    writeFileSync(target, '');
    symlinkSync(target, etagLogPath(env, 'linked'));
    await expect(openEtagCache(env, 'linked').set('p', '"1"')).rejects.toBeInstanceOf(SymlinkError);
    expect(readFileSync(target, 'utf8')).toBe('');

    const cache = openEtagCache(env, 'plain', { maxEntries: 2 });
    for (let i = 0; i < 6; i++) await cache.set(`p${i}`, `"${i}"`);
    expect(readdirSync(join(dir, 'etags')).sort()).toEqual(['linked.log', 'plain.log']);
    expect(mode(etagLogPath(env, 'plain'))).toBe(0o600);
    expect(existsSync(etagLogPath(env, 'plain'))).toBe(true);
  });
});
