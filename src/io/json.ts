// JSON.stringify escapes C0 controls but leaves DEL, the C1 controls (U+009B is a CSI), the line and
// paragraph separators and Unicode format characters (bidi overrides, zero-width, tag characters) raw.
const UNESCAPED = /[\u007f-\u009f\u2028\u2029]|\p{Cf}/gu;

function escaped(character: string): string {
  let out = '';
  for (let i = 0; i < character.length; i++) out += `\\u${character.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/**
 * JSON text that parses to exactly `value`, with every control and format character escaped: a
 * terminal shows it inert (`\u202e`), and a script reads the same value.
 */
export function jsonText(value: unknown, indent?: number): string {
  const text = JSON.stringify(value, null, indent) ?? 'null';
  return text.replace(UNESCAPED, escaped);
}
