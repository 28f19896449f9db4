/**
 * How many times each request digest was met so far in a run, in typed arrays (a 64-bit tag and a
 * count per digest): a million distinct lines cost ~16 MB, not a million map entries. A re-run is
 * sized up front from the requests its journal confirmed, so the table never grows while it runs
 * (growing holds the old table and the new one at once).
 */

const EMPTY = 0;
const MIN_CAPACITY = 1024;

/** Slots for `count` digests at most 3/4 full. The tags are hash bytes: any capacity spreads them evenly (no power of two needed). */
function capacityFor(count: number): number {
  return Math.max(MIN_CAPACITY, Math.ceil((4 * count) / 3) + 1);
}

export class Occurrences {
  /** Per slot: two words of the tag, then the count + 1 (0: empty). */
  private slots: Uint32Array;
  private used = 0;

  /** `expected`: how many distinct digests the run will likely meet (more only grows the table). */
  constructor(private readonly expected = 0) {
    this.slots = new Uint32Array(3 * capacityFor(expected));
  }

  /** How many times `digest` (base64url SHA-256) was met before, and counts this one. */
  next(digest: string): number {
    const bytes = Buffer.from(digest.slice(0, 11), 'base64url');
    const high = bytes.readUInt32LE(0);
    const low = bytes.readUInt32LE(4);
    if (4 * (this.used + 1) > 3 * this.capacity) this.grow();
    const at = this.slotOf(high, low);
    const seen = this.slots[3 * at + 2] as number;
    if (seen === EMPTY) {
      this.slots[3 * at] = high;
      this.slots[3 * at + 1] = low;
      this.used++;
      this.slots[3 * at + 2] = 1;
      return 0;
    }
    this.slots[3 * at + 2] = seen + 1;
    return seen;
  }

  /** Forgets every count; `release`: lets go of the table's memory too (the run is over), else keeps its size for a second pass. */
  reset(release = false): void {
    if (release) this.slots = new Uint32Array(3 * MIN_CAPACITY);
    else this.slots.fill(0);
    this.used = 0;
  }

  private get capacity(): number {
    return this.slots.length / 3;
  }

  private slotOf(high: number, low: number): number {
    const capacity = this.capacity;
    for (let at = high % capacity; ; at = at + 1 === capacity ? 0 : at + 1) {
      if (this.slots[3 * at + 2] === EMPTY || (this.slots[3 * at] === high && this.slots[3 * at + 1] === low)) return at;
    }
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Uint32Array(3 * capacityFor(Math.max(this.expected, 2 * this.used)));
    for (let at = 0; at < old.length / 3; at++) {
      if (old[3 * at + 2] === EMPTY) continue;
      const slot = this.slotOf(old[3 * at] as number, old[3 * at + 1] as number);
      this.slots.set(old.subarray(3 * at, 3 * at + 3), 3 * slot);
    }
  }
}
