import * as z from 'zod/mini';

export interface FieldIssue {
  /** Dotted path of the offending field, e.g. `delivered.delivered_postal_code`; empty for the body itself. */
  path: string;
  message: string;
}

export type Validated<T> = { ok: true; value: T } | { ok: false; issues: FieldIssue[] };

/** Runs a schema and flattens zod's issues into field paths and rule messages. */
export function validate<S extends z.ZodMiniType>(schema: S, input: unknown): Validated<z.infer<S>> {
  const result = z.safeParse(schema, input);
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
