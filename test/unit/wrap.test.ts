import { describe, expect, it } from 'vitest';
import { wrapWords } from '../../src/io/wrap.js';
import { displayWidth } from '../../src/io/table.js';

describe('the one word-wrapper', () => {
  it('breaks at spaces within the width; a longer word stands alone', () => {
    expect(wrapWords('one two three four', 9)).toEqual(['one two', 'three', 'four']);
    expect(wrapWords('a supercalifragilistic b', 5)).toEqual(['a', 'supercalifragilistic', 'b']);
  });

  it('measures a line as its caller says: wide characters by display width, two columns each', () => {
    expect(wrapWords('東京 大阪 名古屋', 9)).toEqual(['東京 大阪 名古屋']);
    expect(wrapWords('東京 大阪 名古屋', 9, displayWidth)).toEqual(['東京 大阪', '名古屋']);
  });

  it('never breaks inside a backticked command: it moves to the next line whole, even past the width', () => {
    expect(wrapWords('fix: run `parcels auth login --profile ops` again', 30)).toEqual(['fix: run', '`parcels auth login --profile ops`', 'again']);
    expect(wrapWords('run `parcels doctor`, then retry', 14)).toEqual(['run', '`parcels doctor`,', 'then retry']);
    // An unclosed backtick keeps the rest together rather than guessing.
    expect(wrapWords('a `b c d', 3)).toEqual(['a', '`b c d']);
  });
});
