import { describe, expect, it } from 'vitest';
import { decodeKeyText } from '../../src/schemas/key-text.js';

describe('decodeKeyText: the one decoder of key-shaped text', () => {
  it('decodes percent escapes in either case', () => {
    expect(decodeKeyText('sk%5Flive%5fabc')).toBe('sk_live_abc');
  });

  it('decodes \\u escapes in either case, and JSON\'s \\/', () => {
    expect(decodeKeyText('s\\u006B\\u005flive\\/x')).toBe('sk_live/x');
  });

  it('leaves text without escapes, and malformed escapes, as they are', () => {
    const plain = 'sk_live_abcdefgh';
    expect(decodeKeyText(plain)).toBe(plain);
    expect(decodeKeyText('100% \\u00zz %G1')).toBe('100% \\u00zz %G1');
  });
});
