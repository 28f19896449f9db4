/** The output formats, listed once: flags, environment, profiles and renderers all check against this. */
export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;

export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export function isOutputFormat(value: unknown): value is OutputFormat {
  return typeof value === 'string' && (OUTPUT_FORMATS as readonly string[]).includes(value);
}
