import { UsageError } from '../errors.js';
import { didYouMean } from '../schemas/did-you-mean.js';
import type { CommandDefinition, FlagSpec, FlagSpecs, FlagValues } from '../definitions/definition.js';
import { longFlag } from '../definitions/definition.js';
import type { GlobalOptions } from '../definitions/globals.js';
import { GLOBAL_FLAGS } from '../definitions/globals.js';
import { intFlag } from '../args/int.js';
import type { FlagName, VariableName } from '../schemas/flag-name.js';

/** A flag's raw value as commander collected it: a string, a switch, or the strings of a repeated flag. */
export type RawFlag = string | boolean | string[] | undefined;

/**
 * Turns raw flag values (keyed like the definition) into the typed values `parse` receives: types
 * checked, defaults and environment variables applied, required flags and conflicts enforced. Every
 * error names the flag as the user types it and exits 2; nothing has been sent yet.
 */
export function resolveFlags<Specs extends FlagSpecs>(
  definition: Pick<CommandDefinition<Specs>, 'flags'>,
  raw: Readonly<Record<string, RawFlag>>,
  env: NodeJS.ProcessEnv = {},
): FlagValues<Specs> {
  const given = (key: string): boolean => raw[key] !== undefined && !(definition.flags[key]?.type === 'list' && (raw[key] as string[]).length === 0);
  for (const [key, spec] of Object.entries(definition.flags)) {
    if (!given(key)) continue;
    for (const other of spec.conflicts ?? []) {
      const otherSpec = definition.flags[other];
      if (otherSpec !== undefined && given(other)) {
        throw new UsageError(`${longFlag(spec)} and ${longFlag(otherSpec)} cannot be used together`, longFlag(spec));
      }
    }
  }
  for (const [key, spec] of Object.entries(definition.flags)) {
    if (spec.type !== 'string' || spec.requiredUnless === undefined || given(key)) continue;
    if (!spec.requiredUnless.some(given)) throw new UsageError(`${longFlag(spec)} is required`, longFlag(spec));
  }
  const values: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(definition.flags)) {
    const fromEnv = spec.env === undefined ? undefined : env[spec.env];
    const value = raw[key] ?? (fromEnv === '' ? undefined : fromEnv);
    values[key] = typed(spec, value, raw[key] === undefined && fromEnv && spec.env !== undefined ? spec.env : longFlag(spec));
  }
  return values as FlagValues<Specs>;
}

/**
 * The global flags by the same rules (`--output xml` and `--sandbox --base-url …` are refused here),
 * with `--json` folded into `output`. No environment: settings reads the variables of the profile
 * settings, after the flag and before the profile (see ./definitions/globals.ts).
 */
export function resolveGlobalOptions(raw: Readonly<Record<string, RawFlag>>): GlobalOptions {
  const globals = resolveFlags({ flags: GLOBAL_FLAGS }, raw);
  return globals.json ? { ...globals, output: 'json' } : globals;
}

function typed(spec: FlagSpec, value: RawFlag, source: FlagName | VariableName): unknown {
  const name = source;
  switch (spec.type) {
    case 'bool':
      // `--no-x` switches default to true; commander sets them already, this covers a missing key.
      return typeof value === 'boolean' ? value : value === undefined ? spec.flags.includes('--no-') : value !== 'false' && value !== '0';
    case 'list':
      return Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
    case 'int':
      if (typeof value !== 'string') return required(spec, spec.default);
      return intFlag(value, name, { min: spec.min, max: spec.max });
    case 'choice':
      if (typeof value !== 'string') return required(spec, spec.default);
      if (!spec.choices.includes(value)) throw new UsageError(`${name} must be one of ${spec.choices.join(', ')} (got "${value}")${didYouMean(value, spec.choices)}`, name);
      return value;
    case 'string':
      return typeof value === 'string' ? value : required(spec, spec.default);
  }
}

function required<T>(spec: FlagSpec & { required?: boolean }, fallback: T): T {
  if (fallback === undefined && spec.required === true) throw new UsageError(`${longFlag(spec)} is required`, longFlag(spec));
  return fallback;
}
