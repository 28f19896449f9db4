/** JSON with object keys in code-unit order: one text for one value, whatever order or spacing it came in (undefined fields left out). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const object = value as Record<string, unknown>;
    const fields = Object.keys(object)
      .filter((name) => object[name] !== undefined)
      .sort()
      .map((name) => `${JSON.stringify(name)}:${canonicalJson(object[name])}`);
    return `{${fields.join(',')}}`;
  }
  return JSON.stringify(value);
}
