/** A JSON text parsed with the line of every value, so a rule broken deep inside can be reported by line. */
export interface LinedJson {
  value: unknown;
  /** Line (1-based) where the value at `path` starts; the nearest parent's line when unknown. */
  lineOf(path: ReadonlyArray<string | number>): number;
}

export class JsonSyntaxError extends Error {
  override readonly name = 'JsonSyntaxError';
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

/** Parses strict JSON (RFC 8259) recording lines; duplicate object keys are an error. */
export function parseJsonWithLines(text: string): LinedJson {
  const lines = new Map<string, number>();
  let i = 0;
  let line = 1;
  const fail = (message: string): never => {
    throw new JsonSyntaxError(line, message);
  };
  const skip = (): void => {
    for (; i < text.length; i++) {
      const c = text[i];
      if (c === '\n') line++;
      else if (c !== ' ' && c !== '\t' && c !== '\r') return;
    }
  };
  const literal = (word: string, value: unknown): unknown => {
    if (text.startsWith(word, i)) {
      i += word.length;
      return value;
    }
    return fail(`unexpected ${describe()}`);
  };
  const describe = (): string => (i >= text.length ? 'end of file' : `character ${JSON.stringify(text[i])}`);
  const string = (): string => {
    const start = i;
    i++;
    for (; i < text.length; i++) {
      const c = text[i];
      if (c === '"') break;
      if (c === '\\') i++;
      else if (c === '\n' || (c as string) < ' ') fail('a line break or control character inside a string');
    }
    if (i >= text.length) fail('a string is not closed');
    i++;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      return fail('a string has an invalid escape');
    }
  };
  const value = (path: string): unknown => {
    skip();
    lines.set(path, line);
    const c = text[i];
    if (c === '{') {
      i++;
      const out: Record<string, unknown> = {};
      skip();
      if (text[i] === '}') {
        i++;
        return out;
      }
      for (;;) {
        skip();
        if (text[i] !== '"') fail(`expected a property name in double quotes, found ${describe()}`);
        const key = string();
        if (Object.prototype.hasOwnProperty.call(out, key)) fail(`property "${key}" is given twice`);
        skip();
        if (text[i] !== ':') fail(`expected ":" after "${key}", found ${describe()}`);
        i++;
        out[key] = value(`${path}/${key}`);
        skip();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return out;
        } else fail(`expected "," or "}", found ${describe()}`);
      }
    }
    if (c === '[') {
      i++;
      const out: unknown[] = [];
      skip();
      if (text[i] === ']') {
        i++;
        return out;
      }
      for (;;) {
        out.push(value(`${path}/${out.length}`));
        skip();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return out;
        } else fail(`expected "," or "]", found ${describe()}`);
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true', true);
    if (c === 'f') return literal('false', false);
    if (c === 'n') return literal('null', null);
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 64));
    if (!m) return fail(`unexpected ${describe()}`);
    i += m[0].length;
    return Number(m[0]);
  };
  const result = value('');
  skip();
  if (i < text.length) fail(`unexpected ${describe()} after the JSON value`);
  return {
    value: result,
    lineOf(path) {
      for (let n = path.length; n >= 0; n--) {
        const found = lines.get(path.slice(0, n).map((p) => `/${p}`).join(''));
        if (found !== undefined) return found;
      }
      return 1;
    },
  };
}
