/**
 * The one hash table of the bulk engine for a million lines: open addressing over one Uint32Array,
 * never a map of a million entries. A slot is `words` words: the 64-bit tag of a request digest
 * (two words), a mark (0: the slot is empty), then what its user keeps. Sized up front for the
 * entries expected, at most 3/4 full; growing by half past that (growing holds the old table and
 * the new one at once, so a run that knows its size never grows).
 * Occurrences (../occurrences.ts) keys by tag alone and counts in the mark; the created index's
 * LineTable (created-index/table.ts) keys by tag and mark (the occurrence).
 */

const EMPTY = 0;
const MIN_CAPACITY = 1024;
/** Spreads a tag's occurrences over the table when the mark is part of the key. */
const GOLDEN = 0x9e3779b1;

/** Slots for `count` entries at most 3/4 full. The tags are hash bytes: any capacity spreads them evenly (no power of two needed). */
function capacityFor(count: number): number {
  return Math.max(MIN_CAPACITY, Math.ceil((4 * count) / 3) + 1);
}

/** The tag of a request digest (base64url SHA-256): its first 64 bits, as two words. */
export function tagOfDigest(digest: string): [number, number] {
  const bytes = Buffer.from(digest.slice(0, 11), 'base64url');
  return [bytes.readUInt32LE(0), bytes.readUInt32LE(4)];
}

export class TagTable {
  protected slots: Uint32Array;
  protected used = 0;

  /**
   * `words`: per slot (3 at least); `markIsKey`: whether the mark is part of the key (else a tag has
   * one slot, whatever its mark); `expected`: about how many entries will be added (more only grow it).
   */
  constructor(
    protected readonly words: number,
    private readonly markIsKey: boolean,
    private readonly expected = 0,
  ) {
    this.slots = new Uint32Array(words * capacityFor(expected));
  }

  /** Forgets every entry; `release`: lets go of the memory too (the run is over), else keeps the size for a second pass. */
  reset(release = false): void {
    if (release) this.slots = new Uint32Array(this.words * MIN_CAPACITY);
    else this.slots.fill(0);
    this.used = 0;
  }

  protected get capacity(): number {
    return this.slots.length / this.words;
  }

  /** Grows the table first when `more` entries would fill it over 3/4. */
  protected reserve(more: number): void {
    if (4 * (this.used + more) > 3 * this.capacity) this.grow();
  }

  /** The slot holding the tag (with this mark, where the mark is part of the key), or the empty slot where it goes. */
  protected slotOf(high: number, low: number, mark: number): number {
    const { capacity, words, markIsKey } = this;
    const start = markIsKey ? ((high ^ Math.imul(mark, GOLDEN)) >>> 0) % capacity : high % capacity;
    for (let at = start; ; at = at + 1 === capacity ? 0 : at + 1) {
      const base = words * at;
      const seen = this.slots[base + 2];
      if (seen === EMPTY || ((!markIsKey || seen === mark) && this.slots[base] === high && this.slots[base + 1] === low)) return at;
    }
  }

  /** Whether a slot is empty. */
  protected isEmpty(slot: number): boolean {
    return this.slots[this.words * slot + 2] === EMPTY;
  }

  /** Takes an empty slot for the tag with its mark. */
  protected take(slot: number, high: number, low: number, mark: number): void {
    const at = this.words * slot;
    this.slots[at] = high;
    this.slots[at + 1] = low;
    this.slots[at + 2] = mark;
    this.used++;
  }

  private grow(): void {
    const old = this.slots;
    const words = this.words;
    this.slots = new Uint32Array(words * capacityFor(Math.max(this.expected, 1.5 * this.used)));
    for (let at = 0; at < old.length; at += words) {
      if (old[at + 2] === EMPTY) continue;
      const slot = this.slotOf(old[at] as number, old[at + 1] as number, old[at + 2] as number);
      this.slots.set(old.subarray(at, at + words), words * slot);
    }
  }
}
