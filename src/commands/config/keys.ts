import { UsageError } from '../../errors.js';

/** Settings `parcels config get|set` manage. The API key is not one of them: only `auth login` stores it. */
export const CONFIG_KEYS = ['output', 'timeout', 'retries', 'base_url'] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];

export function configKeyArg(value: string): ConfigKey {
  const key = value.trim().replace(/-/g, '_');
  if ((CONFIG_KEYS as readonly string[]).includes(key)) return key as ConfigKey;
  if (key === 'api_key') {
    throw new UsageError('the API key is not a config value', 'KEY', 'use `parcels auth login` (it reads the key from a prompt or stdin, never the command line)');
  }
  throw new UsageError(`KEY must be one of ${CONFIG_KEYS.join(', ')} (got "${value}")`, 'KEY');
}
