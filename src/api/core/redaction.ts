import { NetworkError } from '../../errors.js';
import { decodeKeyText } from '../../schemas/key-text.js';
import { redactKey } from '../redact.js';

/**
 * The request chain's redaction piece: the key never comes back out of an answer in any encoding.
 * Built once per client (`redaction(apiKey)`). It masks the key in the raw text on arrival (every
 * header value, the body, a transport failure's words) and, once the body is parsed, in every
 * decoded string of it: a server can write the key with `\u` or `%XX` escapes so that no 8 of its
 * characters stand in a row in the raw text, and JSON.parse (or whoever reads a `%5F`) puts them
 * back together. Each text is also searched in its decoded form (src/schemas/key-text.ts, the one
 * decoder of key-shaped text); where that form leaks the key, the masked decoded form replaces it.
 */

/** Deeper than anything the API sends; a deeper answer is refused before anything walks it. */
export const MAX_ANSWER_DEPTH = 256;

export interface Redaction {
  /** A raw body on arrival: the key masked where it stands in clear (escaped forms are masked once it is parsed, `parsed`). */
  raw(text: string): string;
  /** A text as it arrived (header value, raw body, failure detail): masked in its raw and in its decoded form. */
  text(text: string): string;
  /**
   * A parsed body: every string (and property name) in it masked like `text`, in place. `raw` is
   * the text it was parsed from: without a `\` or `%` in it, every string is a slice of it, already
   * masked, and only the depth is checked. Throws a NetworkError (response_too_deep, not retried) for an answer
   * nested deeper than MAX_ANSWER_DEPTH.
   */
  parsed(value: unknown, raw: string): unknown;
}

/** `text` with the key masked, also where it is written with escapes (then its decoded form, masked, stands in). */
export function redactAnyForm(text: string, key: string | undefined): string {
  if (!key) return text;
  const plain = redactKey(text, key);
  const decoded = decodeKeyText(plain);
  if (decoded === plain) return plain;
  const masked = redactKey(decoded, key);
  return masked === decoded ? plain : masked;
}

export function redaction(apiKey: string | undefined): Redaction {
  const text = (value: string): string => redactAnyForm(value, apiKey);
  return {
    raw: (value) => redactKey(value, apiKey),
    text,
    parsed: (value, raw) => walk(value, apiKey && (raw.includes('\\') || raw.includes('%')) ? text : undefined),
  };
}

function tooDeep(): NetworkError {
  return new NetworkError(`the service answered with JSON nested deeper than ${MAX_ANSWER_DEPTH} levels; refused (a bad answer)`, 'response_too_deep');
}

/** Walks `root` without recursion (a hostile depth cannot overflow the stack), masking strings with `mask` when given. */
function walk(root: unknown, mask: ((text: string) => string) | undefined): unknown {
  if (typeof root === 'string') return mask === undefined ? root : mask(root);
  if (typeof root !== 'object' || root === null) return root;
  const stack: [object, number][] = [[root, 1]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, depth] = top;
    if (depth > MAX_ANSWER_DEPTH) throw tooDeep();
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const item: unknown = node[i];
        if (typeof item === 'string') {
          if (mask !== undefined) node[i] = mask(item);
        } else if (typeof item === 'object' && item !== null) stack.push([item, depth + 1]);
      }
      continue;
    }
    const record = node as Record<string, unknown>;
    for (const name of Object.keys(record)) {
      const item = record[name];
      if (typeof item === 'string') {
        if (mask !== undefined) setOwn(record, name, mask(item));
      } else if (typeof item === 'object' && item !== null) stack.push([item, depth + 1]);
      const maskedName = mask === undefined ? name : mask(name);
      if (maskedName !== name) {
        setOwn(record, maskedName, record[name]);
        delete record[name];
      }
    }
  }
  return root;
}

/** An own property, as JSON.parse makes them (assigning `__proto__` would set the prototype instead). */
function setOwn(record: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(record, name, { value, writable: true, enumerable: true, configurable: true });
}
