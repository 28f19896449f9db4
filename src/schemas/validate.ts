import * as z from 'zod/mini';

export interface FieldIssue {
  /** Dotted path of the offending field, e.g. `delivered.delivered_postal_code`; empty for the body itself. */
  path: string;
  message: string;
}

export type Validated<T> = { ok: true; value: T } | { ok: false; issues: FieldIssue[] };

/** How each JSON type zod names is said in a rule. */
const TYPE_NAMES: Record<string, string> = {
  string: 'a string', number: 'a number', int: 'an integer', boolean: 'true or false', array: 'an array', object: 'an object', null: 'null',
};

/**
 * Rule messages for what a schema leaves without one of its own (zod/mini ships no messages: every
 * such issue would read "Invalid input"). A schema's own message always wins.
 */
const fallbackMessage: z.core.$ZodErrorMap = (issue) => {
  if (issue.code === 'invalid_type') return issue.input === undefined ? 'is required' : `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
  if (issue.code === 'invalid_value') return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  return undefined;
};

/** Runs a schema and flattens zod's issues into field paths and rule messages. */
export function validate<S extends z.ZodMiniType>(schema: S, input: unknown): Validated<z.infer<S>> {
  const result = z.safeParse(schema, input, { error: fallbackMessage });
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    issues: result.error.issues.flatMap((issue): FieldIssue[] => {
      const path = issue.path.map(String);
      // One issue per unknown property, each naming the property itself, e.g. `delivered.colour`.
      if (issue.code === 'unrecognized_keys') {
        return issue.keys.map((key) => ({ path: [...path, key].join('.'), message: 'is not an allowed field' }));
      }
      return [{ path: path.join('.'), message: describeIssue(issue) }];
    }),
  };
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return `unknown field(s): ${issue.keys.join(', ')}`;
  return issue.message;
}
