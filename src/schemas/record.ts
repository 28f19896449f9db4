/** A plain JSON object (not null, not an array): the one shape check shared by every layer. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
