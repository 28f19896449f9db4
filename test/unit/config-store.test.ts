import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SymlinkError } from '../../src/config/own-file.js';
import { readCached, writeCached } from '../../src/config/cache.js';
import { configDir, dataDir, defaultSandboxDb } from '../../src/config/paths.js';
import { resolveSettings } from '../../src/config/settings.js';
import type { ConfigFile } from '../../src/config/store.js';
import { ConfigFileError, configPath, parseSettableValue, readConfig, updateConfig } from '../../src/config/store.js';
import { UsageError } from '../../src/errors.js';

let dir: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'parcels-config-'));
  env = { PARCELS_CONFIG_DIR: join(dir, 'cfg') };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const mode = (path: string): number => statSync(path).mode & 0o777;

describe('paths', () => {
  it('PARCELS_CONFIG_DIR wins for config and data', () => {
    expect(configDir({ PARCELS_CONFIG_DIR: '/x' })).toBe('/x');
    expect(dataDir({ PARCELS_CONFIG_DIR: '/x' })).toBe('/x');
    expect(defaultSandboxDb({ PARCELS_CONFIG_DIR: '/x' })).toBe('/x/sandbox.db');
  });

  it('platform directories match conf/env-paths without a suffix', () => {
    expect(configDir({ HOME: '/h' }, 'linux')).toBe('/h/.config/parcels');
    expect(configDir({ HOME: '/h', XDG_CONFIG_HOME: '/xdg' }, 'linux')).toBe('/xdg/parcels');
    expect(dataDir({ HOME: '/h' }, 'linux')).toBe('/h/.local/share/parcels');
    expect(dataDir({ HOME: '/h', XDG_DATA_HOME: '/d' }, 'linux')).toBe('/d/parcels');
    expect(configDir({ HOME: '/h' }, 'darwin')).toBe('/h/Library/Preferences/parcels');
    expect(dataDir({ HOME: '/h' }, 'darwin')).toBe('/h/Library/Application Support/parcels');
    expect(configDir({ HOME: '/h', APPDATA: '/appdata' }, 'win32')).toBe(join('/appdata', 'parcels', 'Config'));
    expect(dataDir({ HOME: '/h', LOCALAPPDATA: '/local' }, 'win32')).toBe(join('/local', 'parcels', 'Data'));
  });
});

describe('store', () => {
  it('a missing file is an empty config', async () => {
    expect(await readConfig(env)).toEqual({ profiles: {} });
  });

  it('a corrupt file is a ConfigFileError naming the file', async () => {
    mkdirSync(env.PARCELS_CONFIG_DIR as string, { recursive: true });
    writeFileSync(configPath(env), '{"profiles": {');
    const error = await readConfig(env).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigFileError);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toContain(configPath(env));
    expect((error as Error).message).toContain('is not valid JSON');
    writeFileSync(configPath(env), '{"profiles": []}');
    await expect(readConfig(env)).rejects.toThrow(`config file ${configPath(env)} "profiles" must be an object`);
  });

  it('writes through conf with mode 0600 in a 0700 directory and reads back', async () => {
    const written = await updateConfig(env, (c) => {
      c.current_profile = 'work';
      c.profiles.work = { base_url: 'https://api.example.com', api_key: 'secret-key-1', output: 'json', timeout: 12.5, retries: 0 };
    });
    const expected: ConfigFile = {
      current_profile: 'work',
      profiles: { work: { base_url: 'https://api.example.com', api_key: 'secret-key-1', output: 'json', timeout: 12.5, retries: 0 } },
    };
    expect(written).toEqual(expected);
    expect(await readConfig(env)).toEqual(expected);
    expect(JSON.parse(readFileSync(configPath(env), 'utf8'))).toEqual(expected);
    expect(mode(configPath(env))).toBe(0o600);
    expect(mode(env.PARCELS_CONFIG_DIR as string)).toBe(0o700);
  });

  it('tightens an existing 0644 file to 0600 on write', async () => {
    mkdirSync(env.PARCELS_CONFIG_DIR as string, { recursive: true, mode: 0o755 });
    writeFileSync(configPath(env), '{"profiles":{"default":{"output":"csv"}}}', { mode: 0o644 });
    await updateConfig(env, (c) => {
      c.profiles.default = { ...c.profiles.default, retries: 5 };
    });
    expect(mode(configPath(env))).toBe(0o600);
    // A directory the CLI did not create keeps its owner's mode.
    expect(mode(env.PARCELS_CONFIG_DIR as string)).toBe(0o755);
    expect(await readConfig(env)).toEqual({ profiles: { default: { output: 'csv', retries: 5 } } });
  });

  it('validates changed values with errors naming the key and rule; writes nothing then', async () => {
    const set = (profile: Record<string, unknown>) =>
      updateConfig(env, (c) => {
        c.profiles.p = profile as never;
      });
    await expect(set({ output: 'xml' })).rejects.toThrow('output must be one of table, wide, json, ndjson, csv (profile "p", got "xml")');
    await expect(set({ timeout: 0 })).rejects.toThrow('timeout must be a positive number of seconds (profile "p", got 0)');
    await expect(set({ retries: 11 })).rejects.toThrow('retries must be an integer from 0 to 10 (profile "p", got 11)');
    await expect(set({ retries: 1.5 })).rejects.toThrow('retries must be an integer from 0 to 10');
    await expect(set({ base_url: 'ftp://x' })).rejects.toThrow('base_url must be an http:// or https:// URL');
    expect(existsSync(configPath(env))).toBe(false);
  });

  it('parseSettableValue types and checks `config set` input; api_key is refused', () => {
    expect(parseSettableValue('timeout', '2.5')).toBe(2.5);
    expect(parseSettableValue('retries', '4')).toBe(4);
    expect(parseSettableValue('output', 'ndjson')).toBe('ndjson');
    expect(parseSettableValue('base_url', 'http://localhost:8080')).toBe('http://localhost:8080');
    expect(() => parseSettableValue('retries', 'three')).toThrow('retries must be an integer from 0 to 10');
    expect(() => parseSettableValue('timeout', '')).toThrow('timeout must be a positive number');
    expect(() => parseSettableValue('api_key', 'x')).toThrow('api_key cannot be set with `config set`');
    expect(() => parseSettableValue('colour', 'x')).toThrow('unknown config key "colour"; settable keys: output, timeout, retries, base_url, bulk_matched_lines, sandbox, queue_writes');
  });

  it('a write replaces the file whole (a new file renamed over it, no temp left) and never goes through a symbolic link', async () => {
    await updateConfig(env, (c) => {
      c.profiles.default = { output: 'csv' };
    });
    const first = statSync(configPath(env)).ino;
    await updateConfig(env, (c) => {
      c.profiles.default = { output: 'json' };
    });
    // A rename over the old file: a reader sees the old file or the new one, never a torn one.
    expect(statSync(configPath(env)).ino).not.toBe(first);
    expect(readdirSync(env.PARCELS_CONFIG_DIR as string)).toEqual(['config.json']);
    expect(mode(configPath(env))).toBe(0o600);

    const target = join(dir, 'elsewhere.json');
    writeFileSync(target, '{"profiles":{}}');
    rmSync(configPath(env));
    symlinkSync(target, configPath(env));
    await expect(updateConfig(env, (c) => {
      c.profiles.default = { output: 'csv' };
    })).rejects.toThrow(SymlinkError);
    expect(readFileSync(target, 'utf8')).toBe('{"profiles":{}}');
    expect(lstatSync(configPath(env)).isSymbolicLink()).toBe(true);
  });
});

describe('resolveSettings precedence', () => {
  const config: ConfigFile = {
    current_profile: 'work',
    profiles: {
      work: { base_url: 'https://work.example', api_key: 'work-key', output: 'csv', timeout: 10, retries: 1, bulk_matched_lines: 'skip' },
      home: { base_url: 'https://home.example', api_key: 'home-key' },
    },
  };

  it('defaults when nothing is set', () => {
    expect(resolveSettings({ flags: {}, env: {}, config: { profiles: {} } })).toEqual({
      profile: 'default',
      profileExists: false,
      output: 'table',
      timeoutMs: 30_000,
      retries: 3,
      bulkMatchedLines: 'refuse',
      queueWrites: false,
      sources: { profile: 'default', baseUrl: 'default', apiKey: 'default', output: 'default', timeout: 'default', retries: 'default', bulkMatchedLines: 'default', queueWrites: 'default' },
    });
  });

  it('profile values from current_profile', () => {
    expect(resolveSettings({ flags: {}, env: {}, config })).toEqual({
      profile: 'work',
      profileExists: true,
      baseUrl: 'https://work.example',
      apiKey: 'work-key',
      output: 'csv',
      timeoutMs: 10_000,
      retries: 1,
      bulkMatchedLines: 'skip',
      queueWrites: false,
      sources: { profile: 'profile', baseUrl: 'profile', apiKey: 'profile', output: 'profile', timeout: 'profile', retries: 'profile', bulkMatchedLines: 'profile', queueWrites: 'default' },
    });
  });

  it('environment beats the profile; PARCELS_PROFILE picks the profile', () => {
    const env = {
      PARCELS_PROFILE: 'home',
      PARCELS_OUTPUT: 'json',
      PARCELS_TIMEOUT: '2.5',
      PARCELS_RETRIES: '7',
      PARCELS_API_KEY: 'env-key',
    };
    const s = resolveSettings({ flags: {}, env, config });
    expect(s).toMatchObject({ profile: 'home', baseUrl: 'https://home.example', apiKey: 'env-key', output: 'json', timeoutMs: 2500, retries: 7 });
    expect(s.sources).toEqual({ profile: 'env', baseUrl: 'profile', apiKey: 'env', output: 'env', timeout: 'env', retries: 'env', bulkMatchedLines: 'default', queueWrites: 'default' });
  });

  it('flags beat the environment (the key has no flag)', () => {
    const env = { PARCELS_PROFILE: 'home', PARCELS_BASE_URL: 'https://env.example', PARCELS_OUTPUT: 'json', PARCELS_TIMEOUT: '3', PARCELS_RETRIES: '2' };
    const s = resolveSettings({
      flags: { profile: 'work', baseUrl: 'http://flag.example:8080', output: 'ndjson', timeout: '1', retries: '0' },
      env,
      config,
    });
    // The profile's key is for https://work.example: it is withheld from another host (see the host-binding tests).
    expect(s).toMatchObject({ profile: 'work', baseUrl: 'http://flag.example:8080', output: 'ndjson', timeoutMs: 1000, retries: 0 });
    expect(s.apiKey).toBeUndefined();
    expect(s.withheldKey).toEqual({ boundTo: 'https://work.example' });
    expect(s.sources).toEqual({ profile: 'flag', baseUrl: 'flag', apiKey: 'profile', output: 'flag', timeout: 'flag', retries: 'flag', bulkMatchedLines: 'profile', queueWrites: 'default' });
  });

  it('errors name the flag, the variable, or the profile key (never the key value)', () => {
    expect(() => resolveSettings({ flags: { timeout: 'abc' }, env: {}, config })).toThrow('--timeout must be a positive number of seconds (got "abc")');
    expect(() => resolveSettings({ flags: {}, env: { PARCELS_RETRIES: '11' }, config })).toThrow('PARCELS_RETRIES must be an integer from 0 to 10 (got "11")');
    expect(() => resolveSettings({ flags: {}, env: { PARCELS_OUTPUT: 'xml' }, config })).toThrow('PARCELS_OUTPUT must be one of table, wide, json, ndjson, csv (got "xml")');
    expect(() => resolveSettings({ flags: {}, env: { PARCELS_BULK_MATCHED_LINES: 'maybe' }, config })).toThrow('PARCELS_BULK_MATCHED_LINES must be one of refuse, skip, create (got "maybe")');
    expect(() => resolveSettings({ flags: {}, env: { PARCELS_BASE_URL: 'nope' }, config })).toThrow('PARCELS_BASE_URL must be an http:// or https:// URL');
    const bad: ConfigFile = { profiles: { default: { retries: -1 } } };
    expect(() => resolveSettings({ flags: {}, env: {}, config: bad })).toThrow('retries in profile "default" must be an integer from 0 to 10 (got -1)');
    const error = (() => {
      try {
        resolveSettings({ flags: {}, env: { PARCELS_API_KEY: 'two\nlines' }, config });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error?.message).toBe('PARCELS_API_KEY must be a non-empty API key on one line');
  });

  it('an unknown profile name resolves to defaults with profileExists false', () => {
    const s = resolveSettings({ flags: { profile: 'nope' }, env: {}, config });
    expect(s).toMatchObject({ profile: 'nope', profileExists: false, output: 'table', retries: 3 });
    expect(s.baseUrl).toBeUndefined();
  });
});

describe('TTL cache', () => {
  it('round-trips within the TTL, expires after it, files 0600', async () => {
    await writeCached(env, 'work', 'code-names', { status: { 4: 'delivered' } }, 1_000_000);
    expect(await readCached(env, 'work', 'code-names', 60, 1_000_000 + 59_000)).toEqual({ status: { 4: 'delivered' } });
    expect(await readCached(env, 'work', 'code-names', 60, 1_000_000 + 61_000)).toBeUndefined();
    expect(await readCached(env, 'other', 'code-names', 60, 1_000_000)).toBeUndefined();
    expect(mode(join(env.PARCELS_CONFIG_DIR as string, 'cache', 'work', 'code-names.json'))).toBe(0o600);
  });
});
