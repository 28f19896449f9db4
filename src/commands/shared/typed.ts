import type { Context } from '../../context.js';
import { shellQuote } from '../../io/shell.js';

/**
 * `parcels [--sandbox] [--profile P] [--base-url U] <path> [flags]` with the values as the user gave
 * them (a status name stays a name), plus the output options, so a hint built on it does the same
 * thing when pasted. Flags with an undefined value are left out.
 */
export function typedCommand(ctx: Context, path: readonly string[], flags: readonly [string, string | undefined][] = []): string {
  const { globals } = ctx;
  const words = ['parcels'];
  const add = (flag: string, value: string | undefined): void => {
    if (value !== undefined) words.push(flag, shellQuote(value));
  };
  if (globals.sandbox) words.push('--sandbox');
  add('--profile', globals.profile);
  add('--base-url', globals.baseUrl);
  words.push(...path);
  for (const [flag, value] of flags) add(flag, value);
  add('--output', globals.output);
  add('--fields', globals.fields);
  if (globals.utc) words.push('--utc');
  return words.join(' ');
}
