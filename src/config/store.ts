import { chmod, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { configDir } from './paths.js';

export type OutputFormat = 'table' | 'json' | 'ndjson' | 'csv';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['table', 'json', 'ndjson', 'csv'];

export interface Profile {
  base_url?: string;
  api_key?: string;
  output?: OutputFormat;
  /** Seconds. */
  timeout?: number;
  retries?: number;
}

export interface ConfigFile {
  current_profile?: string;
  profiles: Record<string, Profile>;
}

/** Keys `parcels config set` may change. The API key is deliberately absent: only `auth login` stores it. */
export type SettableKey = 'output' | 'timeout' | 'retries' | 'base_url';
export const SETTABLE_KEYS: readonly SettableKey[] = ['output', 'timeout', 'retries', 'base_url'];
export const RETRIES_MAX = 10;

export const CONFIG_FILE_NAME = 'config.json';

export function configPath(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), CONFIG_FILE_NAME);
}

/** A config file that exists but cannot be used. */
export class ConfigFileError extends UsageError {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`config file ${path} ${problem}`, undefined, `fix the file by hand, or move it away and run \`parcels auth login\` again`);
  }
}

/**
 * Reads the profiles file: a plain read and JSON.parse (no `conf`, which costs tens of ms to load).
 * A missing file is an empty config; a corrupt one is a ConfigFileError naming the file.
 */
export async function readConfig(env: NodeJS.ProcessEnv): Promise<ConfigFile> {
  const path = configPath(env);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
    throw new ConfigFileError(path, `cannot be read: ${(error as Error).message}`);
  }
  return parseConfig(path, text);
}

export function parseConfig(path: string, text: string): ConfigFile {
  if (text.trim() === '') return { profiles: {} };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ConfigFileError(path, `is not valid JSON (${(error as Error).message})`);
  }
  return normalize(path, raw);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function normalize(path: string, raw: unknown): ConfigFile {
  if (!isObject(raw)) throw new ConfigFileError(path, 'must hold a JSON object');
  const config: ConfigFile = { ...(raw as object), profiles: {} } as ConfigFile;
  if (raw.current_profile !== undefined && typeof raw.current_profile !== 'string') {
    throw new ConfigFileError(path, '"current_profile" must be a string');
  }
  if (raw.profiles !== undefined) {
    if (!isObject(raw.profiles)) throw new ConfigFileError(path, '"profiles" must be an object of profile name → settings');
    for (const [name, profile] of Object.entries(raw.profiles)) {
      if (!isObject(profile)) throw new ConfigFileError(path, `profile "${name}" must be an object`);
      config.profiles[name] = { ...profile } as Profile;
    }
  }
  return config;
}

/**
 * Checks one profile value. Returns the value typed, or throws a UsageError naming the key and the
 * rule. `where` names the place for messages (e.g. `profile "default"`).
 */
export function checkProfileValue(key: keyof Profile, value: unknown, where = 'config', shown: unknown = value): unknown {
  const fail = (rule: string): never => {
    throw new UsageError(`${key} ${rule} (${where}, got ${JSON.stringify(shown)})`, key);
  };
  switch (key) {
    case 'output':
      if (typeof value !== 'string' || !(OUTPUT_FORMATS as readonly string[]).includes(value)) fail(`must be one of ${OUTPUT_FORMATS.join(', ')}`);
      return value;
    case 'timeout':
      if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) fail('must be a positive number of seconds');
      return value;
    case 'retries':
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > RETRIES_MAX) fail(`must be an integer from 0 to ${RETRIES_MAX}`);
      return value;
    case 'base_url':
      if (typeof value !== 'string' || !isHttpUrl(value)) fail('must be an http:// or https:// URL');
      return value;
    case 'api_key':
      if (typeof value !== 'string' || value === '' || value !== value.trim() || /[\r\n]/.test(value)) fail('must be a non-empty string without surrounding whitespace');
      return value;
    default:
      return fail('is not a known setting');
  }
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host !== '';
  } catch {
    return false;
  }
}

/**
 * Turns the text a user typed for `parcels config set KEY VALUE` into a checked value.
 * api_key is refused: keys go through `parcels auth login`, which reads stdin or a prompt.
 */
export function parseSettableValue(key: string, text: string): string | number {
  if (key === 'api_key') {
    throw new UsageError('api_key cannot be set with `config set`', 'api_key', 'run `parcels auth login` (it reads the key from stdin or a prompt)');
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
  if (!isObject(after.profiles)) throw new UsageError('profiles must be an object');
  if (after.current_profile !== undefined && (typeof after.current_profile !== 'string' || after.current_profile === '')) {
    throw new UsageError('current_profile must be a non-empty profile name', 'current_profile');
  }
  for (const [name, profile] of Object.entries(after.profiles)) {
    if (name === '') throw new UsageError('a profile name must not be empty', '--profile');
    if (!isObject(profile)) throw new UsageError(`profile "${name}" must be an object`);
    const old = before.profiles[name] ?? {};
    for (const [key, value] of Object.entries(profile)) {
      if (value === undefined) continue;
      if (old[key as keyof Profile] === value) continue;
      checkProfileValue(key as keyof Profile, value, `profile "${name}"`);
    }
  }
}

/** Drops undefined values and empty profiles' undefined keys so the file stays tidy. */
function tidy(config: ConfigFile): ConfigFile {
  const out: ConfigFile = { ...config, profiles: {} };
  if (out.current_profile === undefined) delete out.current_profile;
  for (const [name, profile] of Object.entries(config.profiles)) {
    const clean: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(profile)) if (value !== undefined) clean[key] = value;
    out.profiles[name] = clean as Profile;
  }
  return out;
}

/**
 * Reads, changes and writes the profiles file. Writes go through `conf` (loaded only here), with
 * the file at mode 0600 and its directory at 0700. Changed values are validated first; nothing is
 * written when `mutate` throws or a value is invalid.
 */
export async function updateConfig(env: NodeJS.ProcessEnv, mutate: (config: ConfigFile) => void): Promise<ConfigFile> {
  const dir = configDir(env);
  const path = configPath(env);
  const before = await readConfig(env);
  const next = structuredClone(before);
  mutate(next);
  checkChanges(before, next);
  const result = tidy(next);

  await mkdir(dir, { recursive: true, mode: 0o700 });
  const { default: Conf } = await import('conf');
  const conf = new Conf<Record<string, unknown>>({
    projectName: 'parcels',
    projectSuffix: '',
    cwd: dir,
    configName: 'config',
    configFileMode: 0o600,
    accessPropertiesByDotNotation: false,
    clearInvalidConfig: false,
  });
  conf.store = result as unknown as Record<string, unknown>;
  if (process.platform !== 'win32') {
    await chmod(path, 0o600);
    await chmod(dir, 0o700);
  }
  return result;
}
