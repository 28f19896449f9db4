/** The request chain's redaction piece (src/api/core/redaction.ts) on its own. */
import { describe, expect, it } from 'vitest';
import { MAX_ANSWER_DEPTH, redactAnyForm, redaction } from '../../src/api/core/redaction.js';
import { NetworkError } from '../../src/errors.js';

const KEY = 'sk_live_Q7mZ4pX9wL2vK8nR5tY1';

describe('redaction piece', () => {
  it('masks the key in clear, percent-encoded and \\u-escaped text; leaves other text as it is', () => {
    expect(redactAnyForm(`a ${KEY} b`, KEY)).toBe('a ***REDACTED*** b');
    expect(redactAnyForm('x Q7m%5a4pX%39wL2 y', KEY)).toBe('x ***REDACTED*** y');
    expect(redactAnyForm('x Q7m\\u005a4pX\\u0039wL2 y', KEY)).toBe('x ***REDACTED*** y');
    expect(redactAnyForm('100% \\u0041 plain', KEY)).toBe('100% \\u0041 plain');
  });

  it('masks every decoded string and property name of a parsed body, an own "__proto__" included', () => {
    const raw = `{"a":["Q7mZ\\u0034pX9wL2"],"b":{"__proto__":"Q7mZ4pX%39wL2","${'Q7mZ4pX9w\\u004c2'}":1}}`;
    const parsed = redaction(KEY).parsed(JSON.parse(raw), raw);
    expect(JSON.stringify(parsed)).toBe('{"a":["***REDACTED***"],"b":{"__proto__":"***REDACTED***","***REDACTED***":1}}');
  });

  it(`refuses a body nested deeper than ${MAX_ANSWER_DEPTH} levels, without recursion`, () => {
    const deep = `${'['.repeat(MAX_ANSWER_DEPTH + 1)}${']'.repeat(MAX_ANSWER_DEPTH + 1)}`;
    expect(() => redaction(KEY).parsed(JSON.parse(deep), deep)).toThrow(NetworkError);
    const fits = `${'['.repeat(MAX_ANSWER_DEPTH)}${']'.repeat(MAX_ANSWER_DEPTH)}`;
    expect(() => redaction(undefined).parsed(JSON.parse(fits), fits)).not.toThrow();
  });
});
