/**
 * The output formats, listed once: flags, environment, profiles and renderers all check against this.
 * `wide` is the table with every field (kubectl's `-o wide`).
 */
export const OUTPUT_FORMATS = ['table', 'wide', 'json', 'ndjson', 'csv'] as const;

export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export function isOutputFormat(value: unknown): value is OutputFormat {
  return typeof value === 'string' && (OUTPUT_FORMATS as readonly string[]).includes(value);
}

/** The formats a person reads (tables, names, success messages), as opposed to data for scripts. */
export function isHumanFormat(format: OutputFormat): format is 'table' | 'wide' {
  return format === 'table' || format === 'wide';
}
