import { hash } from 'node:crypto';

/**
 * The lines of one input by the 64-bit tag of what they ask for, in typed arrays (five words a
 * slot: the tag, the occurrence + 1, the line's position in the input, and — on a tag's first
 * occurrence — a counter), never a map of a million entries: ~27 MB for a million distinct lines
 * when sized for them up front (from the file's size), growing by half when not.
 * Lines with identical requests are separate entries by occurrence. While the input is read, the
 * counter numbers the occurrences; then each earlier record of a tag claims the next occurrence not
 * yet claimed, so a request created twice before matches two of three identical lines, and the
 * third is new.
 */

const WORDS = 5;
const EMPTY = 0;
const MIN_CAPACITY = 1024;

function capacityFor(count: number): number {
  return Math.max(MIN_CAPACITY, Math.ceil((4 * count) / 3) + 1);
}

/** The tag of a request digest (base64url SHA-256): its first 64 bits, as two words. */
export function tagOfDigest(digest: string): [number, number] {
  const bytes = Buffer.from(digest.slice(0, 11), 'base64url');
  return [bytes.readUInt32LE(0), bytes.readUInt32LE(4)];
}

export class LineTable {
  private slots: Uint32Array;
  private used = 0;
  private claiming = false;

  /** `expected`: about how many lines will be added (more only grow the table). */
  constructor(expected = 0) {
    this.slots = new Uint32Array(WORDS * capacityFor(expected));
  }

  get size(): number {
    return this.used;
  }

  /** Adds the next occurrence of the tag, at input position `position`. */
  add(high: number, low: number, position: number): void {
    if (this.claiming) throw new Error('LineTable: add after the first claim');
    if (4 * (this.used + 2) > 3 * this.capacity) this.grow();
    const first = this.slotOf(high, low, 0);
    let occurrence = 0;
    if (this.slots[WORDS * first + 2] === EMPTY) this.fill(first, high, low, 0, position);
    else {
      occurrence = (this.slots[WORDS * first + 4] as number) + 1;
      this.slots[WORDS * first + 4] = occurrence;
    }
    if (occurrence > 0) this.fill(this.slotOf(high, low, occurrence), high, low, occurrence, position);
  }

  /** The position of the next occurrence of the tag no earlier record claimed, or -1 when all are (or none was added). */
  claim(high: number, low: number): number {
    if (!this.claiming) this.startClaims();
    const first = this.slotOf(high, low, 0);
    if (this.slots[WORDS * first + 2] === EMPTY) return -1;
    const occurrence = this.slots[WORDS * first + 4] as number;
    const slot = occurrence === 0 ? first : this.slotOf(high, low, occurrence);
    if (this.slots[WORDS * slot + 2] === EMPTY) return -1;
    this.slots[WORDS * first + 4] = occurrence + 1;
    return this.slots[WORDS * slot + 3] as number;
  }

  private startClaims(): void {
    this.claiming = true;
    for (let at = 4; at < this.slots.length; at += WORDS) this.slots[at] = 0;
  }

  private get capacity(): number {
    return this.slots.length / WORDS;
  }

  private fill(slot: number, high: number, low: number, occurrence: number, position: number): void {
    const at = WORDS * slot;
    this.slots[at] = high;
    this.slots[at + 1] = low;
    this.slots[at + 2] = occurrence + 1;
    this.slots[at + 3] = position;
    this.used++;
  }

  private slotOf(high: number, low: number, occurrence: number): number {
    const capacity = this.capacity;
    const mark = occurrence + 1;
    for (let at = ((high ^ Math.imul(mark, 0x9e3779b1)) >>> 0) % capacity; ; at = at + 1 === capacity ? 0 : at + 1) {
      const base = WORDS * at;
      const seen = this.slots[base + 2];
      if (seen === EMPTY || (seen === mark && this.slots[base] === high && this.slots[base + 1] === low)) return at;
    }
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Uint32Array(WORDS * capacityFor(1.5 * this.used));
    for (let at = 0; at < old.length; at += WORDS) {
      if (old[at + 2] === EMPTY) continue;
      const slot = this.slotOf(old[at] as number, old[at + 1] as number, (old[at + 2] as number) - 1);
      this.slots.set(old.subarray(at, at + WORDS), WORDS * slot);
    }
  }
}

/** The tag of a line's identity value (its order or shipment number, as written). */
export function tagOfIdentity(value: string): [number, number] {
  const bytes = hash('sha256', `identity\0${value}`, 'buffer');
  return [bytes.readUInt32LE(0), bytes.readUInt32LE(4)];
}
