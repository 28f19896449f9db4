import { hash } from 'node:crypto';
import { TagTable } from '../tag-table.js';

/**
 * The lines of one input by the 64-bit tag of what they ask for, in the bulk engine's one hash
 * table (../tag-table.ts), five words a slot: the tag, the occurrence + 1, the line's position in
 * the input, and (on a tag's first occurrence) a counter: ~27 MB for a million distinct lines when
 * sized for them up front (from the file's size).
 * Lines with identical requests are separate entries by occurrence. While the input is read, the
 * counter numbers the occurrences; then each earlier record of a tag claims the next occurrence not
 * yet claimed, so a request created twice before matches two of three identical lines, and the
 * third is new.
 */

const WORDS = 5;
/** The claim filter's size in bits: 16 a line, within [2^10, 2^21] (256 KB: it stays in cache). */
const FILTER_MIN_BITS = 1 << 10;
const FILTER_MAX_BITS = 1 << 21;

export class LineTable extends TagTable {
  private claiming = false;
  /**
   * One bit per value of a tag's low word (masked), set for every line's tag when claims start: a
   * claim by a record of no line of the input (most of an index) costs a bit test in cache instead
   * of a probe of a table that does not fit there (BENCHMARKS.md).
   */
  private filter = new Uint32Array(0);
  private filterMask = 0;

  /** `expected`: about how many lines will be added (more only grow the table). */
  constructor(expected = 0) {
    super(WORDS, true, expected);
  }

  get size(): number {
    return this.used;
  }

  /** Adds the next occurrence of the tag, at input position `position`. */
  add(high: number, low: number, position: number): void {
    if (this.claiming) throw new Error('LineTable: add after the first claim');
    this.reserve(2);
    const first = this.slotOf(high, low, 1);
    let occurrence = 0;
    if (this.isEmpty(first)) this.fill(first, high, low, 0, position);
    else {
      occurrence = (this.slots[WORDS * first + 4] as number) + 1;
      this.slots[WORDS * first + 4] = occurrence;
    }
    if (occurrence > 0) this.fill(this.slotOf(high, low, occurrence + 1), high, low, occurrence, position);
  }

  /** The position of the next occurrence of the tag no earlier record claimed, or -1 when all are (or none was added). */
  claim(high: number, low: number): number {
    if (!this.claiming) this.startClaims();
    const bit = low & this.filterMask;
    if (((this.filter[bit >>> 5] as number) & (1 << (bit & 31))) === 0) return -1;
    const first = this.slotOf(high, low, 1);
    if (this.isEmpty(first)) return -1;
    const occurrence = this.slots[WORDS * first + 4] as number;
    const slot = occurrence === 0 ? first : this.slotOf(high, low, occurrence + 1);
    if (this.isEmpty(slot)) return -1;
    this.slots[WORDS * first + 4] = occurrence + 1;
    return this.slots[WORDS * slot + 3] as number;
  }

  private startClaims(): void {
    this.claiming = true;
    let bits = FILTER_MIN_BITS;
    while (bits < 16 * this.used && bits < FILTER_MAX_BITS) bits *= 2;
    this.filter = new Uint32Array(bits >>> 5);
    this.filterMask = bits - 1;
    for (let slot = 0; slot < this.capacity; slot++) {
      const at = WORDS * slot;
      this.slots[at + 4] = 0;
      if (this.isEmpty(slot)) continue;
      const bit = (this.slots[at + 1] as number) & this.filterMask;
      this.filter[bit >>> 5] = (this.filter[bit >>> 5] as number) | (1 << (bit & 31));
    }
  }

  /** The tag's occurrence (its mark: occurrence + 1) at input position `position`. */
  private fill(slot: number, high: number, low: number, occurrence: number, position: number): void {
    this.take(slot, high, low, occurrence + 1);
    this.slots[WORDS * slot + 3] = position;
  }
}

/** The tag of a line's identity value (its order or shipment number, as written). */
export function tagOfIdentity(value: string): [number, number] {
  const bytes = hash('sha256', `identity\0${value}`, 'buffer');
  return [bytes.readUInt32LE(0), bytes.readUInt32LE(4)];
}
