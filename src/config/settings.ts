import { NotLoggedInError, UsageError } from '../errors.js';
import { hintCommand } from '../hint/hint.js';
import type { OutputFormat } from '../io/output-format.js';
import { longFlag } from '../definitions/definition.js';
import { GLOBAL_FLAGS } from '../definitions/globals.js';
import type { ConfigFile, MatchedLinesSetting, Profile, ProfileKey, YesNo } from './schema.js';
import { checkSetting, originOf } from './schema.js';
import type { FlagName } from '../schemas/flag-name.js';

/** Where a setting came from; `profile` = the profile in config.json, `sandbox` marks the embedded sandbox of --sandbox. */
export type SettingSource = 'flag' | 'env' | 'profile' | 'default' | 'sandbox';

export interface Settings {
  profile: string;
  /** Whether the profile exists in config.json. */
  profileExists: boolean;
  baseUrl?: string;
  /** The key to send to `baseUrl`: PARCELS_API_KEY, or the profile's key when it is bound to this base URL's host. */
  apiKey?: string;
  /**
   * Set when the profile holds a key but for another host than `baseUrl`: the key is withheld
   * (`apiKey` stays unset) and `requireApiKey` says so.
   */
  withheldKey?: { boundTo: string };
  output: OutputFormat;
  timeoutMs: number;
  retries: number;
  /** `create --from`: lines matching what earlier batches created are refused (default), skipped or created again. */
  bulkMatchedLines: MatchedLinesSetting;
  /** create, events add and attempts add keep a request the service cannot take in the outbox, as with --queue (`queue_writes yes`). */
  queueWrites: boolean;
  /** The profile says its service is a sandbox (`sandbox yes`): its test clock is trusted. */
  markedSandbox?: true;
  sources: {
    /** `profile` here means current_profile in config.json. */
    profile: SettingSource;
    baseUrl: SettingSource;
    apiKey: SettingSource;
    output: SettingSource;
    timeout: SettingSource;
    retries: SettingSource;
    bulkMatchedLines: SettingSource;
    queueWrites: SettingSource;
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

const DEFAULT_PROFILE = 'default';
const DEFAULT_OUTPUT: OutputFormat = 'table';
const DEFAULT_TIMEOUT_S = 30;
const DEFAULT_RETRIES = 3;

/** The variable behind each setting: the global flag's (GLOBAL_FLAGS), and the key's, which no flag sets. */
const ENV = {
  profile: GLOBAL_FLAGS.profile.env,
  baseUrl: GLOBAL_FLAGS.baseUrl.env,
  apiKey: 'PARCELS_API_KEY',
  output: GLOBAL_FLAGS.output.env,
  timeout: GLOBAL_FLAGS.timeout.env,
  retries: GLOBAL_FLAGS.retries.env,
  bulkMatchedLines: 'PARCELS_BULK_MATCHED_LINES',
  queueWrites: 'PARCELS_QUEUE_WRITES',
} as const;

const FLAG = {
  baseUrl: longFlag(GLOBAL_FLAGS.baseUrl),
  output: longFlag(GLOBAL_FLAGS.output),
  timeout: longFlag(GLOBAL_FLAGS.timeout),
  retries: longFlag(GLOBAL_FLAGS.retries),
};

function present(value: string | number | undefined): value is string | number {
  return value !== undefined && value !== '';
}

function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

/** Text from a flag or variable as the type the profile schema expects. */
function typed(key: ProfileKey, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (key === 'timeout' || key === 'retries') return value.trim() === '' ? Number.NaN : Number(value);
  // A key from the environment may carry the newline of `export PARCELS_API_KEY=$(cat file)`.
  if (key === 'api_key') return value.trim();
  return value;
}

/** The profile schema's rule for `key`, with messages naming the flag, variable or profile key. */
function check(key: ProfileKey, value: unknown, where: string): unknown {
  const checked = checkSetting(key, typed(key, value));
  if (checked.ok) return checked.value;
  const got = checked.showValue ? ` (got ${JSON.stringify(value)})` : '';
  throw new UsageError(`${where} ${checked.rule}${got}`, where);
}

/**
 * Resolves the effective settings: flag > environment > profile > default. The profile is chosen by
 * --profile, PARCELS_PROFILE, current_profile, then "default". Invalid values are UsageErrors naming
 * the flag, the variable, or the profile key. The profile's key is handed out only for its own
 * host (see `withheldKey`); PARCELS_API_KEY is used for whatever base URL.
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

  function pick(key: ProfileKey, flag: string | number | undefined, flagName: FlagName | undefined, envName: string): { value: unknown; source: SettingSource } {
    if (present(flag) && flagName !== undefined) return { value: check(key, flag, flagName), source: 'flag' };
    const fromEnv = envValue(env, envName);
    if (fromEnv !== undefined) return { value: check(key, fromEnv, envName), source: 'env' };
    const fromProfile = p[key];
    if (fromProfile !== undefined && fromProfile !== null) return { value: check(key, fromProfile, `${key} in profile "${profile}"`), source: 'profile' };
    return { value: undefined, source: 'default' };
  }

  const baseUrl = pick('base_url', flags.baseUrl, FLAG.baseUrl, ENV.baseUrl);
  const apiKey = pick('api_key', undefined, undefined, ENV.apiKey);
  const output = pick('output', flags.output, FLAG.output, ENV.output);
  const timeout = pick('timeout', flags.timeout, FLAG.timeout, ENV.timeout);
  const retries = pick('retries', flags.retries, FLAG.retries, ENV.retries);
  const bulkMatchedLines = pick('bulk_matched_lines', undefined, undefined, ENV.bulkMatchedLines);
  const queueWrites = pick('queue_writes', undefined, undefined, ENV.queueWrites);

  const settings: Settings = {
    profile,
    profileExists: stored !== undefined,
    output: (output.value as OutputFormat | undefined) ?? DEFAULT_OUTPUT,
    timeoutMs: Math.round(((timeout.value as number | undefined) ?? DEFAULT_TIMEOUT_S) * 1000),
    retries: (retries.value as number | undefined) ?? DEFAULT_RETRIES,
    bulkMatchedLines: (bulkMatchedLines.value as MatchedLinesSetting | undefined) ?? 'refuse',
    queueWrites: (queueWrites.value as YesNo | undefined) === 'yes',
    sources: {
      profile: profileSource,
      baseUrl: baseUrl.source,
      apiKey: apiKey.source,
      output: output.source,
      timeout: timeout.source,
      retries: retries.source,
      bulkMatchedLines: bulkMatchedLines.source,
      queueWrites: queueWrites.source,
    },
  };
  if (baseUrl.value !== undefined) settings.baseUrl = baseUrl.value as string;
  if (p.sandbox !== undefined && check('sandbox', p.sandbox, `sandbox in profile "${profile}"`) === 'yes') settings.markedSandbox = true;
  if (apiKey.value === undefined) return settings;
  const boundTo = apiKey.source === 'profile' ? keyHost(p) : undefined;
  if (boundTo !== undefined && (settings.baseUrl === undefined || originOf(settings.baseUrl) !== boundTo)) {
    settings.withheldKey = { boundTo };
    return settings;
  }
  settings.apiKey = apiKey.value as string;
  return settings;
}

/**
 * The host a stored key is bound to: that of the base URL it was saved with (`auth login` stores
 * both; the store refuses to move one without the other). A key saved with no base URL (written by
 * hand) is bound to nothing and so never handed out.
 */
function keyHost(profile: Profile): string {
  return (profile.base_url === undefined ? undefined : originOf(profile.base_url)) ?? 'no host';
}

/**
 * The key to send, or an authentication error (exit 3) saying why there is none: no key at all, or
 * the profile's key belongs to another host (then how to proceed). Nothing has been sent either way.
 */
export function requireApiKey(settings: Settings): string {
  if (settings.apiKey !== undefined) return settings.apiKey;
  const { profile } = settings;
  if (settings.withheldKey !== undefined) {
    const target = settings.baseUrl === undefined ? 'no base URL' : originOf(settings.baseUrl);
    const login = settings.baseUrl === undefined ? hintCommand(['auth', 'login', '--profile', profile], []) : hintCommand(['auth', 'login', '--profile', profile, '--base-url', settings.baseUrl], []);
    throw new NotLoggedInError(`the API key of profile "${profile}" is for ${settings.withheldKey.boundTo}, not ${target}; it was not sent`, [
      'set PARCELS_API_KEY for a one-off request, or run ',
      login,
      ' to save a key for that host',
    ]);
  }
  throw new NotLoggedInError(`no API key for profile "${profile}"`, ['run ', hintCommand(['auth', 'login', '--profile', profile], ['--base-url']), ', or set PARCELS_API_KEY']);
}
