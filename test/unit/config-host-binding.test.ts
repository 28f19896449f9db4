import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { requireApiKey, resolveSettings } from '../../src/config/settings.js';
import type { ConfigFile } from '../../src/config/store.js';
import { configPath, parseSettableValue, updateConfig } from '../../src/config/store.js';
import { targetId } from '../../src/config/target.js';
import { NotLoggedInError, UsageError, exitCodeFor } from '../../src/errors.js';

const KEY = 'work-key-0123456789';
const config: ConfigFile = {
  current_profile: 'work',
  profiles: { work: { base_url: 'https://work.example/v1', api_key: KEY } },
};

function thrown(f: () => unknown): Error {
  try {
    f();
  } catch (error) {
    return error as Error;
  }
  throw new Error('did not throw');
}

describe('a stored key is bound to the host it was saved with', () => {
  it('the same scheme, host and port get the key (path and default port do not matter)', () => {
    for (const baseUrl of ['https://work.example/v1', 'https://work.example:443/other', 'HTTPS://WORK.example']) {
      const s = resolveSettings({ flags: { baseUrl }, env: {}, config });
      expect(requireApiKey(s)).toBe(KEY);
    }
  });

  it('another host, scheme or port via --base-url or PARCELS_BASE_URL: withheld, exit 3 naming both hosts and the ways on', () => {
    const cases: [Parameters<typeof resolveSettings>[0]['flags'], NodeJS.ProcessEnv, string][] = [
      [{ baseUrl: 'https://evil.example' }, {}, 'https://evil.example'],
      [{}, { PARCELS_BASE_URL: 'http://work.example/v1' }, 'http://work.example'],
      [{}, { PARCELS_BASE_URL: 'https://work.example:8443' }, 'https://work.example:8443'],
    ];
    for (const [flags, env, shown] of cases) {
      const s = resolveSettings({ flags, env, config });
      expect(s.apiKey).toBeUndefined();
      expect(s.withheldKey).toEqual({ boundTo: 'https://work.example' });
      const error = thrown(() => requireApiKey(s));
      expect(error).toBeInstanceOf(NotLoggedInError);
      expect(exitCodeFor(error)).toBe(3);
      expect(error.message).toBe(`the API key of profile "work" is for https://work.example, not ${shown}; it was not sent`);
      expect((error as NotLoggedInError).hint).toBe(
        `set PARCELS_API_KEY for a one-off request, or run \`parcels auth login --profile work --base-url ${s.baseUrl}\` to save a key for that host`,
      );
      expect(`${error.message} ${(error as NotLoggedInError).hint}`).not.toContain(KEY);
    }
  });

  it('PARCELS_API_KEY given explicitly is used for whatever base URL', () => {
    const s = resolveSettings({ flags: { baseUrl: 'https://other.example' }, env: { PARCELS_API_KEY: 'env-key-1234' }, config });
    expect(requireApiKey(s)).toBe('env-key-1234');
    expect(s.sources.apiKey).toBe('env');
  });

  it('a key written by hand without a base URL is bound to nothing and never handed out', () => {
    const s = resolveSettings({ flags: {}, env: { PARCELS_BASE_URL: 'https://any.example' }, config: { profiles: { default: { api_key: KEY } } } });
    expect(thrown(() => requireApiKey(s)).message).toBe('the API key of profile "default" is for no host, not https://any.example; it was not sent');
  });

  it('no key at all: exit 3 with the login hint', () => {
    const error = thrown(() => requireApiKey(resolveSettings({ flags: {}, env: {}, config: { profiles: {} } })));
    expect(error).toBeInstanceOf(NotLoggedInError);
    expect(error.message).toBe('no API key for profile "default"');
  });
});

describe('the store keeps a key with its host', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'parcels-bind-'));
    env = { PARCELS_CONFIG_DIR: dir };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('moving a profile with a key to another host is refused (exit 2); the same host, or a new key with it, is fine', async () => {
    await updateConfig(env, (c) => {
      c.profiles.work = { base_url: 'https://work.example', api_key: KEY };
    });
    const move = updateConfig(env, (c) => {
      c.profiles.work = { ...c.profiles.work, base_url: 'https://evil.example' };
    });
    await expect(move).rejects.toBeInstanceOf(UsageError);
    await expect(move).rejects.toThrow('the API key of profile "work" is bound to https://work.example; changing base_url would send it to https://evil.example');
    await updateConfig(env, (c) => {
      c.profiles.work = { ...c.profiles.work, base_url: 'https://work.example/v2' };
    });
    await updateConfig(env, (c) => {
      c.profiles.work = { base_url: 'https://new.example', api_key: 'new-key-123456' };
    });
    expect(JSON.parse(readFileSync(configPath(env), 'utf8'))).toEqual({ profiles: { work: { base_url: 'https://new.example', api_key: 'new-key-123456' } } });
  });
});

describe('credentials in a base URL are refused everywhere, exit 2, never echoed', () => {
  const withCredentials = 'https://user:hunter2-pass@api.example.com';
  const rule = 'must not contain a user name or password (user:password@host): the API key is the only credential';

  it('settings: flag, environment and profile', () => {
    const cases: [Parameters<typeof resolveSettings>[0], string][] = [
      [{ flags: { baseUrl: withCredentials }, env: {}, config: { profiles: {} } }, `--base-url ${rule}`],
      [{ flags: {}, env: { PARCELS_BASE_URL: 'http://user@localhost:8080' }, config: { profiles: {} } }, `PARCELS_BASE_URL ${rule}`],
      [{ flags: {}, env: {}, config: { profiles: { default: { base_url: withCredentials } } } }, `base_url in profile "default" ${rule}`],
    ];
    for (const [input, message] of cases) {
      const error = thrown(() => resolveSettings(input));
      expect(error).toBeInstanceOf(UsageError);
      expect(exitCodeFor(error)).toBe(2);
      expect(error.message).toBe(message);
    }
  });

  it('`config set base_url` and any store write (the `auth login --no-verify` path)', async () => {
    const error = thrown(() => parseSettableValue('base_url', withCredentials));
    expect(error.message).toBe(`base_url ${rule} (config set)`);
    const dir = mkdtempSync(join(tmpdir(), 'parcels-cred-'));
    try {
      const env = { PARCELS_CONFIG_DIR: dir };
      const write = updateConfig(env, (c) => {
        c.profiles.default = { base_url: withCredentials, api_key: KEY };
      });
      await expect(write).rejects.toThrow(`base_url ${rule} (profile "default")`);
      expect(existsSync(configPath(env))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('targetId', () => {
  it('one id per service: case, default port and trailing slash do not matter; host, port and path do', () => {
    const id = targetId({ baseUrl: 'https://api.example.com/v1' });
    // The same name as releases that hashed in plain JavaScript: existing cache folders keep working.
    expect(id).toBe('api-53aee2ca762b9729');
    expect(targetId({ baseUrl: 'HTTPS://API.example.com:443/v1/' })).toBe(id);
    expect(targetId({ baseUrl: 'https://api.example.com:8443/v1' })).not.toBe(id);
    expect(targetId({ baseUrl: 'https://other.example.com/v1' })).not.toBe(id);
    expect(targetId({ baseUrl: 'https://api.example.com/v2' })).not.toBe(id);
  });

  it('the sandbox is its database file, whatever port it listens on', () => {
    const id = targetId({ sandboxDb: '/data/parcels/sandbox.db' });
    expect(id).toMatch(/^sandbox-[0-9a-f]{16}$/);
    expect(targetId({ sandboxDb: '/data/parcels/../parcels/sandbox.db' })).toBe(id);
    expect(targetId({ sandboxDb: '/data/other.db' })).not.toBe(id);
  });
});
