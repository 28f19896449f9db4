import { readFile } from 'node:fs/promises';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { readAll } from '../io/streams.js';
import { jsonSyntaxProblem } from '../schemas/json-error.js';
import { parcelIdSchema } from '../schemas/parcel-id.js';
import type { FieldIssue } from '../schemas/validate.js';
import { didYouMean } from '../schemas/did-you-mean.js';
import { intFlag } from './int.js';
import type { FlagField, FlagGroup, FlagName } from '../schemas/flag-name.js';

/**
 * A code flag given as its number or its name (`2` or `in_transit`; case, spaces and dashes are
 * forgiven). `names` maps codes to names; numbers outside them are left to the schema to judge.
 */
export function codeFlag(value: string, flag: FlagField, names: Readonly<Record<number, string>>): number {
  const trimmed = value.trim();
  if (/^-?\d+$/.test(trimmed)) return intFlag(trimmed, flag);
  const wanted = normaliseName(trimmed);
  for (const [code, name] of Object.entries(names)) {
    if (normaliseName(name) === wanted) return Number(code);
  }
  const known = Object.entries(names)
    .map(([code, name]) => `${code} ${name}`)
    .join(', ');
  const rule = known === '' ? 'a code number (the service gives no names for these codes)' : `a code number or one of: ${known}`;
  throw new UsageError(`${flag} must be ${rule} (got "${value}")${didYouMean(wanted, Object.values(names))}`, flag);
}

export function normaliseName(name: string): string {
  return name.trim().toLowerCase().replace(/[\s-]+/g, '_');
}

export function parcelIdArg(value: string): string {
  const result = parcelIdSchema.safeParse(value);
  if (!result.success) throw new UsageError(`ID must be a UUID, the parcel's entry_id (got "${value}")`, 'ID');
  return value;
}

/** The body given with --data: inline JSON, @file.json, or - for stdin. Must be a JSON object; absent: {}. */
export async function dataFlag(value: string | undefined, ctx: Context, flag: FlagName = '--data'): Promise<Record<string, unknown>> {
  if (value === undefined) return {};
  let text: string;
  if (value === '-') {
    text = await readAll(ctx.io.stdin);
  } else if (value.startsWith('@')) {
    try {
      text = await readFile(value.slice(1), 'utf8');
    } catch (error) {
      throw new UsageError(`${flag} could not read ${value.slice(1)}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, flag);
    }
  } else {
    text = value;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${flag} is not valid JSON (${jsonSyntaxProblem(error)})`, flag);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`${flag} must be a JSON object`, flag);
  }
  return parsed as Record<string, unknown>;
}

/** Drops undefined entries so a body holds only the fields the user gave. */
export function defined<T extends Record<string, unknown>>(record: T): Partial<T> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Turns schema issues into one UsageError that names the flag for each field (or the body field
 * when it came from --data), so `--postal-code must not be empty` reads like the command line.
 */
export function issuesToUsageError(issues: FieldIssue[], flagFor: Readonly<Record<string, FlagField | FlagGroup>>, what: string): UsageError {
  const lines = issues.map((issue) => {
    const name = flagFor[issue.path] ?? (issue.path === '' ? what : issue.path);
    return `${name} ${issue.message}`;
  });
  const first = issues[0];
  const field = first ? (flagFor[first.path] ?? first.path) : undefined;
  return new UsageError(lines.join('; '), field);
}
