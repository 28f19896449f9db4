import type { SettableKey } from '../config/store.js';
import { hintCommand } from '../hint/hint.js';
import { SETTABLE_KEYS } from '../config/store.js';
import { UsageError } from '../errors.js';
import { didYouMean } from '../schemas/did-you-mean.js';

/** The KEY argument of `config get|set`: a settable key. The API key is never one (auth login stores it). */
export function configKeyArg(value: string): SettableKey {
  const key = value.trim().replace(/-/g, '_');
  if ((SETTABLE_KEYS as readonly string[]).includes(key)) return key as SettableKey;
  if (key === 'api_key') {
    throw new UsageError('the API key is not a config value', 'KEY', undefined, undefined, ['use ', hintCommand(['auth', 'login'], ['--profile', '--base-url']), ' (it reads the key from a prompt or stdin, never the command line)']);
  }
  throw new UsageError(`KEY must be one of ${SETTABLE_KEYS.join(', ')} (got "${value}")${didYouMean(key, SETTABLE_KEYS)}`, 'KEY');
}
