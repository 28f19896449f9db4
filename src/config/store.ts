import { join } from 'node:path';
import * as z from 'zod/mini';
import { UsageError } from '../errors.js';
import { hintCommand } from '../hint/hint.js';
import { isRecord } from '../schemas/record.js';
import { jsonSyntaxProblem } from '../schemas/json-error.js';
import { writeFileAtomic } from './atomic.js';
import { readOwnFile } from './own-file.js';
import { configDir } from './paths.js';
import type { ConfigFile, Profile, ProfileKey } from './schema.js';
import { PROFILE_KEYS, checkSetting, configFileSchema, originOf } from './schema.js';

export type { ConfigFile, Profile };

/** Keys `parcels config set` may change. The API key is deliberately absent: only `auth login` stores it. */
export type SettableKey = 'output' | 'timeout' | 'retries' | 'base_url' | 'bulk_matched_lines' | 'sandbox' | 'queue_writes';
export const SETTABLE_KEYS: readonly SettableKey[] = ['output', 'timeout', 'retries', 'base_url', 'bulk_matched_lines', 'sandbox', 'queue_writes'];

const CONFIG_FILE_NAME = 'config.json';

export function configPath(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), CONFIG_FILE_NAME);
}

/** A config file that exists but cannot be used. */
export class ConfigFileError extends UsageError {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`config file ${path} ${problem}`, undefined, undefined, undefined, ['fix the file by hand, or move it away and run ', hintCommand(['auth', 'login'], ['--profile', '--base-url']), ' again']);
  }
}

/**
 * Reads the profiles file: a plain read and JSON.parse (no `conf`, which costs tens of ms to load).
 * A missing file is an empty config; a corrupt one is a ConfigFileError naming the file; a link, a
 * FIFO or anything else not a regular file is refused by the one opener (own-file.ts), exit 2.
 */
export async function readConfig(env: NodeJS.ProcessEnv): Promise<ConfigFile> {
  const path = configPath(env);
  let text: string | undefined;
  try {
    text = readOwnFile(path);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new ConfigFileError(path, `cannot be read: ${(error as Error).message}`);
  }
  return text === undefined ? { profiles: {} } : parseConfig(path, text);
}

function parseConfig(path: string, text: string): ConfigFile {
  if (text.trim() === '') return { profiles: {} };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    // Where, never what: the file may hold a key, or be whatever a link pointed at.
    throw new ConfigFileError(path, `is not valid JSON (${jsonSyntaxProblem(error)})`);
  }
  return normalize(path, raw);
}

function normalize(path: string, raw: unknown): ConfigFile {
  if (!isRecord(raw)) throw new ConfigFileError(path, 'must hold a JSON object');
  const checked = z.safeParse(configFileSchema, raw);
  if (!checked.success) throw new ConfigFileError(path, checked.error.issues[0]?.message ?? 'is not a valid config file');
  const config: ConfigFile = { ...checked.data, profiles: {} };
  for (const [name, profile] of Object.entries(checked.data.profiles ?? {})) config.profiles[name] = { ...profile };
  return config;
}

/**
 * Checks one profile value. Returns the value typed, or throws a UsageError naming the key and the
 * rule. `where` names the place for messages (e.g. `profile "default"`). A secret value is never echoed.
 */
function checkProfileValue(key: string, value: unknown, where = 'config', shown: unknown = value): unknown {
  if (!(PROFILE_KEYS as readonly string[]).includes(key)) throw new UsageError(`${key} is not a known setting (${where})`, key);
  const checked = checkSetting(key as ProfileKey, value);
  if (checked.ok) return checked.value;
  const got = checked.showValue ? `, got ${JSON.stringify(shown)}` : '';
  throw new UsageError(`${key} ${checked.rule} (${where}${got})`, key);
}

/**
 * Turns the text a user typed for `parcels config set KEY VALUE` into a checked value.
 * api_key is refused: keys go through `parcels auth login`, which reads stdin or a prompt.
 */
export function parseSettableValue(key: string, text: string): string | number {
  if (key === 'api_key') {
    throw new UsageError('api_key cannot be set with `config set`', 'api_key', undefined, undefined, [
      'run ',
      hintCommand(['auth', 'login'], ['--profile', '--base-url']),
      ' (it reads the key from stdin or a prompt)',
    ]);
  }
  if (!(SETTABLE_KEYS as readonly string[]).includes(key)) {
    throw new UsageError(`unknown config key "${key}"; settable keys: ${SETTABLE_KEYS.join(', ')}`, key);
  }
  const k = key as SettableKey;
  if (k === 'timeout' || k === 'retries') {
    const n = text.trim() === '' ? Number.NaN : Number(text);
    return checkProfileValue(k, n, 'config set', text) as number;
  }
  return checkProfileValue(k, text, 'config set') as string;
}

/** Validates every profile value that differs from `before` (old, untouched values are left alone). */
function checkChanges(before: ConfigFile, after: ConfigFile): void {
  if (!isRecord(after.profiles)) throw new UsageError('profiles must be an object');
  if (after.current_profile !== undefined && (typeof after.current_profile !== 'string' || after.current_profile === '')) {
    throw new UsageError('current_profile must be a non-empty profile name', 'current_profile');
  }
  for (const [name, profile] of Object.entries(after.profiles)) {
    if (name === '') throw new UsageError('a profile name must not be empty', '--profile');
    if (!isRecord(profile)) throw new UsageError(`profile "${name}" must be an object`);
    const old: Profile = before.profiles[name] ?? {};
    for (const [key, value] of Object.entries(profile)) {
      if (value === undefined) continue;
      if (old[key] === value) continue;
      checkProfileValue(key, value, `profile "${name}"`);
    }
    checkKeyStaysBound(name, old, profile);
  }
}

/**
 * A stored key is bound to the base URL it was saved with (scheme, host, port). Moving the profile
 * to another host while keeping the key would send the key there, so it takes a new `auth login`.
 */
function checkKeyStaysBound(name: string, before: Profile, after: Profile): void {
  if (after.api_key === undefined || after.api_key !== before.api_key || before.base_url === undefined) return;
  const from = originOf(before.base_url);
  const to = after.base_url === undefined ? undefined : originOf(after.base_url);
  if (from === to) return;
  const login =
    after.base_url === undefined
      ? hintCommand(['auth', 'login', '--profile', name], [])
      : hintCommand(['auth', 'login', '--profile', name, '--base-url', after.base_url], []);
  throw new UsageError(
    `the API key of profile "${name}" is bound to ${from ?? before.base_url}; changing base_url would send it to ${to ?? 'another host'}`,
    'base_url',
    undefined,
    undefined,
    [
      'run ',
      login,
      ' to save a key for that host, or ',
      hintCommand(['auth', 'logout', '--profile', name], []),
      ' first',
    ],
  );
}

/** Drops undefined values and empty profiles' undefined keys so the file stays tidy. */
function tidy(config: ConfigFile): ConfigFile {
  const out: ConfigFile = { ...config, profiles: {} };
  if (out.current_profile === undefined) delete out.current_profile;
  for (const [name, profile] of Object.entries(config.profiles)) {
    const clean: Profile = {};
    for (const [key, value] of Object.entries(profile)) if (value !== undefined) clean[key] = value;
    out.profiles[name] = clean;
  }
  return out;
}

/**
 * Reads, changes and writes the profiles file (atomically, mode 0600, never through a symbolic
 * link). Changed values are validated first; nothing is written when `mutate` throws or a value is
 * invalid.
 */
export async function updateConfig(env: NodeJS.ProcessEnv, mutate: (config: ConfigFile) => void): Promise<ConfigFile> {
  const before = await readConfig(env);
  const next = structuredClone(before);
  mutate(next);
  checkChanges(before, next);
  const result = tidy(next);
  await writeFileAtomic(configPath(env), `${JSON.stringify(result, null, '\t')}\n`);
  return result;
}
