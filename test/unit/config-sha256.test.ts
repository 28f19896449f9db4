import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/config/sha256.js';

const nodeSha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('sha256Hex (plain JavaScript, for target ids on the completion fast path)', () => {
  it('matches the known digests', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('matches node:crypto for any text, across block boundaries (55, 56, 63, 64 bytes and longer)', () => {
    for (const length of [55, 56, 63, 64, 65, 119, 120, 128, 1000]) expect(sha256Hex('x'.repeat(length))).toBe(nodeSha256('x'.repeat(length)));
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (text) => sha256Hex(text) === nodeSha256(text)));
  });
});
