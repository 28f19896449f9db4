// JSON.stringify escapes C0 controls but leaves DEL and the C1 controls (e.g. U+009B, a CSI) raw.
const UNESCAPED_CONTROL = /[\u007f-\u009f]/g;

/** JSON text that parses to exactly `value`, with every control character escaped so a terminal shows it inert. */
export function jsonText(value: unknown, indent?: number): string {
  const text = JSON.stringify(value, null, indent) ?? 'null';
  return text.replace(UNESCAPED_CONTROL, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
