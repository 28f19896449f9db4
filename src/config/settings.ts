import { UsageError } from '../errors.js';
import type { ConfigFile, OutputFormat, Profile } from './store.js';
import { OUTPUT_FORMATS, RETRIES_MAX, isHttpUrl } from './store.js';

/** Where a setting came from. `profile` = the profile in config.json. */
/** Where a setting came from; `sandbox` marks the embedded sandbox of --sandbox. */
export type SettingSource = 'flag' | 'env' | 'profile' | 'default' | 'sandbox';

export interface Settings {
  profile: string;
  /** Whether the profile exists in config.json. */
  profileExists: boolean;
  baseUrl?: string;
  apiKey?: string;
  output: OutputFormat;
  timeoutMs: number;
  retries: number;
  sources: {
    /** `profile` here means current_profile in config.json. */
    profile: SettingSource;
    baseUrl: SettingSource;
    apiKey: SettingSource;
    output: SettingSource;
    timeout: SettingSource;
    retries: SettingSource;
  };
}

/** Global flags as parsed (strings from commander, or already numbers). There is never a flag for the key. */
export interface SettingsFlags {
  profile?: string;
  baseUrl?: string;
  output?: string;
  /** Seconds. */
  timeout?: string | number;
  retries?: string | number;
}

export const DEFAULT_PROFILE = 'default';
export const DEFAULT_OUTPUT: OutputFormat = 'table';
export const DEFAULT_TIMEOUT_S = 30;
export const DEFAULT_RETRIES = 3;

export const ENV = {
  profile: 'PARCELS_PROFILE',
  baseUrl: 'PARCELS_BASE_URL',
  apiKey: 'PARCELS_API_KEY',
  output: 'PARCELS_OUTPUT',
  timeout: 'PARCELS_TIMEOUT',
  retries: 'PARCELS_RETRIES',
} as const;

const FLAG = { profile: '--profile', baseUrl: '--base-url', output: '--output', timeout: '--timeout', retries: '--retries' } as const;

function present(value: string | number | undefined): value is string | number {
  return value !== undefined && value !== '';
}

function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

function toNumber(value: string | number): number {
  if (typeof value === 'number') return value;
  return value.trim() === '' ? Number.NaN : Number(value);
}

function checkOutput(value: unknown, where: string): OutputFormat {
  if (typeof value === 'string' && (OUTPUT_FORMATS as readonly string[]).includes(value)) return value as OutputFormat;
  throw new UsageError(`${where} must be one of ${OUTPUT_FORMATS.join(', ')} (got ${JSON.stringify(value)})`, where);
}

function checkTimeout(value: unknown, where: string): number {
  const n = typeof value === 'string' || typeof value === 'number' ? toNumber(value) : Number.NaN;
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${where} must be a positive number of seconds (got ${JSON.stringify(value)})`, where);
  return n;
}

function checkRetries(value: unknown, where: string): number {
  const n = typeof value === 'string' || typeof value === 'number' ? toNumber(value) : Number.NaN;
  if (!Number.isInteger(n) || n < 0 || n > RETRIES_MAX) {
    throw new UsageError(`${where} must be an integer from 0 to ${RETRIES_MAX} (got ${JSON.stringify(value)})`, where);
  }
  return n;
}

function checkBaseUrl(value: unknown, where: string): string {
  if (typeof value === 'string' && isHttpUrl(value)) return value;
  throw new UsageError(`${where} must be an http:// or https:// URL (got ${JSON.stringify(value)})`, where);
}

function checkApiKey(value: unknown, where: string): string {
  if (typeof value === 'string' && value.trim() !== '' && !/[\r\n]/.test(value)) return value.trim();
  // Never echo the value: it is a secret.
  throw new UsageError(`${where} must be a non-empty API key on one line`, where);
}

/**
 * Resolves the effective settings: flag > environment > profile > default. The profile is chosen by
 * --profile, PARCELS_PROFILE, current_profile, then "default". Invalid values are UsageErrors naming
 * the flag, the variable, or the profile key.
 */
export function resolveSettings(input: { flags: SettingsFlags; env: NodeJS.ProcessEnv; config: ConfigFile }): Settings {
  const { flags, env, config } = input;

  let profile: string;
  let profileSource: SettingSource;
  if (present(flags.profile)) {
    profile = String(flags.profile);
    profileSource = 'flag';
  } else if (envValue(env, ENV.profile) !== undefined) {
    profile = envValue(env, ENV.profile) as string;
    profileSource = 'env';
  } else if (config.current_profile) {
    profile = config.current_profile;
    profileSource = 'profile';
  } else {
    profile = DEFAULT_PROFILE;
    profileSource = 'default';
  }
  const stored: Profile | undefined = Object.hasOwn(config.profiles, profile) ? config.profiles[profile] : undefined;
  const p: Profile = stored ?? {};
  const inProfile = (key: string): string => `${key} in profile "${profile}"`;

  function pick<T>(
    flag: string | number | undefined,
    flagName: string,
    envName: string,
    profileValue: unknown,
    profileKey: string,
    check: (value: unknown, where: string) => T,
  ): { value: T | undefined; source: SettingSource } {
    if (present(flag)) return { value: check(flag, flagName), source: 'flag' };
    const fromEnv = envValue(env, envName);
    if (fromEnv !== undefined) return { value: check(fromEnv, envName), source: 'env' };
    if (profileValue !== undefined && profileValue !== null) return { value: check(profileValue, inProfile(profileKey)), source: 'profile' };
    return { value: undefined, source: 'default' };
  }

  const baseUrl = pick(flags.baseUrl, FLAG.baseUrl, ENV.baseUrl, p.base_url, 'base_url', checkBaseUrl);
  const apiKey = pick(undefined, '', ENV.apiKey, p.api_key, 'api_key', checkApiKey);
  const output = pick(flags.output, FLAG.output, ENV.output, p.output, 'output', checkOutput);
  const timeout = pick(flags.timeout, FLAG.timeout, ENV.timeout, p.timeout, 'timeout', checkTimeout);
  const retries = pick(flags.retries, FLAG.retries, ENV.retries, p.retries, 'retries', checkRetries);

  const settings: Settings = {
    profile,
    profileExists: stored !== undefined,
    output: output.value ?? DEFAULT_OUTPUT,
    timeoutMs: Math.round((timeout.value ?? DEFAULT_TIMEOUT_S) * 1000),
    retries: retries.value ?? DEFAULT_RETRIES,
    sources: {
      profile: profileSource,
      baseUrl: baseUrl.source,
      apiKey: apiKey.source,
      output: output.source,
      timeout: timeout.source,
      retries: retries.source,
    },
  };
  if (baseUrl.value !== undefined) settings.baseUrl = baseUrl.value;
  if (apiKey.value !== undefined) settings.apiKey = apiKey.value;
  return settings;
}
