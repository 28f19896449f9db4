import { TagTable, tagOfDigest } from './tag-table.js';

/**
 * How many times each request digest was met so far in a run: a tag and a count per digest (three
 * words a slot, in tag-table.ts): a million distinct lines cost ~16 MB. A re-run is sized up front
 * from the requests its journal confirmed, so the table never grows while it runs.
 */
export class Occurrences extends TagTable {
  /** `expected`: how many distinct digests the run will likely meet (more only grows the table). */
  constructor(expected = 0) {
    // Per slot: the tag, then the count + 1 as the mark.
    super(3, false, expected);
  }

  /** How many times `digest` (base64url SHA-256) was met before, and counts this one. */
  next(digest: string): number {
    const [high, low] = tagOfDigest(digest);
    this.reserve(1);
    const at = this.slotOf(high, low, 0);
    if (this.isEmpty(at)) {
      this.take(at, high, low, 1);
      return 0;
    }
    const seen = this.slots[3 * at + 2] as number;
    this.slots[3 * at + 2] = seen + 1;
    return seen;
  }
}
