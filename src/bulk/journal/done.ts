import { doneFileChunks, readDoneFile } from './done-file.js';
import type { DonePart, DoneSections, PackedAt } from './done-file.js';
import { EarlierLines } from './earlier.js';
import { tagOf } from './tag.js';

/**
 * The requests of a batch that are confirmed, by request identity (a bulk line's key does not
 * depend on its line number, so neither does this), packed in typed arrays: a million-line batch
 * costs ~49 bytes a request, never a million objects. Per request: a 64-bit tag of its identity,
 * the line it had when confirmed (to name it), its pairing tag (src/bulk/pairing.ts: which parcel
 * that line was about, to tell an edited line at that number), its entry id as 16 bytes when it is
 * a UUID (other ids in a map) and whether this run met it again. The same entries are the journal's compact "done"
 * file on disk (`toChunks`, `read`: journal-done-file.ts). A done file's entries, as read, are a
 * base that is never grown: requests confirmed after it are entries of their own, so one more
 * request never copies a million (nor holds the old arrays and the new at once).
 */

const UUID_HEX = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})$/;

const REMOVED = 0;
const UUID_ID = 1;
const OTHER_ID = 2;

const EMPTY_SLOT = 0xffffffff;

/** Open-addressing slots for `count` entries, at most 3/4 full. The tags are hashes: any size spreads them (no power of two needed). */
function slotsFor(count: number): number {
  return Math.max(16, Math.ceil((4 * count) / 3) + 1);
}

export class DoneKeys {
  // ArrayBufferLike: a done file's sections are adopted as they were read.
  private tags: Uint32Array<ArrayBufferLike> = new Uint32Array(0);
  private lines: Uint32Array<ArrayBufferLike> = new Uint32Array(0);
  private pairs: Uint32Array<ArrayBufferLike> = new Uint32Array(0);
  private states: Uint8Array<ArrayBufferLike> = new Uint8Array(0);
  private ids: Buffer = Buffer.alloc(0);
  private seenFlags = new Uint8Array(0);
  private readonly otherIds = new Map<number, string | undefined>();
  /** Entries written (removed ones included). */
  private used = 0;
  private count = 0;
  /** Open addressing: the entry of each slot, EMPTY_SLOT for none. */
  private slots = new Uint32Array(16).fill(EMPTY_SLOT);
  /** Highest line number confirmed in this table's own entries. */
  private ownMaxLine = 0;
  /** A done file's entries as read (see above); this table's own entries are the requests not in it. */
  private base: DoneKeys | undefined;

  /** `expected`: room for this many entries up front (more only grow it). */
  static empty(expected = 0): DoneKeys {
    const done = new DoneKeys();
    if (expected > 0) {
      done.growEntries(expected);
      done.slots = new Uint32Array(slotsFor(expected)).fill(EMPTY_SLOT);
    }
    return done;
  }

  get size(): number {
    return this.count + (this.base?.size ?? 0);
  }

  /** Highest line number ever confirmed. */
  get maxLine(): number {
    return Math.max(this.ownMaxLine, this.base?.maxLine ?? 0);
  }

  /** `pair`: the line's pairing tag (0: unknown). */
  set(identity: string, line: number, id: string | undefined, pair = 0): void {
    const tag = tagOf(identity);
    const base = this.base;
    const entry = base?.find(tag);
    if (base !== undefined && entry !== undefined) base.write(entry, line, id, pair);
    else this.write(this.find(tag) ?? this.add(tag), line, id, pair);
  }

  delete(identity: string): void {
    const tag = tagOf(identity);
    this.base?.deleteTag(tag);
    this.deleteTag(tag);
  }

  /** Confirmed. */
  has(identity: string): boolean {
    return this.entryOf(tagOf(identity)) !== undefined;
  }

  entryId(identity: string): string | undefined {
    const found = this.entryOf(tagOf(identity));
    return found === undefined ? undefined : found.table.idOf(found.entry);
  }

  /** Marks a confirmed request as met again by this run (see `earlierLines`); false when it is not confirmed. */
  see(identity: string): boolean {
    const found = this.entryOf(tagOf(identity));
    if (found !== undefined) found.table.seenFlags[found.entry] = 1;
    return found !== undefined;
  }

  /** Confirmed requests this run has not met, by the line they had and their pairing tag: what edited lines once created. */
  earlierLines(): EarlierLines {
    const base = this.base;
    const tables: Array<[DoneKeys, number]> = base === undefined ? [[this, 0]] : [[base, 0], [this, base.used]];
    return EarlierLines.build(
      (each) => {
        for (const [table, offset] of tables) {
          for (let entry = 0; entry < table.used; entry++) {
            if (table.states[entry] !== REMOVED && table.seenFlags[entry] === 0) each(table.lines[entry] as number, table.pairs[entry] as number, offset + entry);
          }
        }
      },
      (ref) => (base !== undefined && ref < base.used ? base.idOf(ref) : this.idOf(ref - (base?.used ?? 0))),
    );
  }

  /** The compact form, as chunks to write one after the other: the base's sections, then this table's own. */
  toChunks(): Uint8Array[] {
    const parts = [...(this.base === undefined ? [] : [this.base.livePart()]), this.livePart()];
    const other: Array<[number, string | null]> = [];
    let offset = 0;
    for (const part of parts) {
      for (const [entry, id] of part.other) other.push([offset + entry, id]);
      offset += part.count;
    }
    return doneFileChunks(parts, other);
  }

  /** A done file (journal-done-file.ts) as a table; `sha256`: what its journal recorded of its bytes, checked. */
  static read(path: string, sha256?: string): DoneKeys {
    const file = readDoneFile(path, sha256);
    return file.v !== 1 ? DoneKeys.adopt(file.sections, file.count, file.other) : DoneKeys.fromSections(file.count, file.at, file.other);
  }

  /** This table's own live entries as done file sections (copied only when some were removed), with their non-UUID ids by entry. */
  private livePart(): DonePart & { other: Array<[number, string | null]> } {
    if (this.count === this.used) {
      // Nothing removed: the sections are the arrays themselves, no copy of a million entries.
      const other = [...this.otherIds].map(([entry, id]): [number, string | null] => [entry, id ?? null]).sort(([a], [b]) => a - b);
      return { sections: { tags: this.tags, lines: this.lines, pairs: this.pairs, states: this.states, ids: this.ids }, count: this.used, other };
    }
    const live: number[] = [];
    for (let entry = 0; entry < this.used; entry++) if (this.states[entry] !== REMOVED) live.push(entry);
    const n = live.length;
    const tags = new Uint32Array(2 * n);
    const lines = new Uint32Array(n);
    const pairs = new Uint32Array(n);
    const states = new Uint8Array(n);
    const ids = Buffer.alloc(16 * n);
    const other: Array<[number, string | null]> = [];
    live.forEach((entry, at) => {
      tags[2 * at] = this.tags[2 * entry] as number;
      tags[2 * at + 1] = this.tags[2 * entry + 1] as number;
      lines[at] = this.lines[entry] as number;
      pairs[at] = this.pairs[entry] as number;
      states[at] = this.states[entry] as number;
      this.ids.copy(ids, 16 * at, 16 * entry, 16 * entry + 16);
      if (this.states[entry] === OTHER_ID) other.push([at, this.otherIds.get(entry) ?? null]);
    });
    return { sections: { tags, lines, pairs, states, ids }, count: n, other };
  }

  /** The live entry of `tag`, in the base or in this table's own. */
  private entryOf(tag: [number, number]): { table: DoneKeys; entry: number } | undefined {
    for (const table of this.base === undefined ? [this] : [this.base, this]) {
      const entry = table.find(tag);
      if (entry !== undefined && table.states[entry] !== REMOVED) return { table, entry };
    }
    return undefined;
  }

  private deleteTag(tag: [number, number]): void {
    const entry = this.find(tag);
    if (entry === undefined || this.states[entry] === REMOVED) return;
    this.states[entry] = REMOVED;
    this.otherIds.delete(entry);
    this.count--;
  }

  private write(entry: number, line: number, id: string | undefined, pair: number): void {
    if (this.states[entry] === REMOVED) this.count++;
    this.lines[entry] = line;
    this.pairs[entry] = pair;
    const uuid = id === undefined ? null : UUID_HEX.exec(id);
    if (uuid !== null) {
      this.ids.write(uuid.slice(1).join(''), 16 * entry, 'hex');
      this.otherIds.delete(entry);
      this.states[entry] = UUID_ID;
    } else {
      this.otherIds.set(entry, id);
      this.states[entry] = OTHER_ID;
    }
    if (line > this.ownMaxLine) this.ownMaxLine = line;
  }

  private idOf(entry: number): string | undefined {
    if (this.states[entry] === REMOVED) return undefined;
    if (this.states[entry] === OTHER_ID) return this.otherIds.get(entry);
    const hex = this.ids.toString('hex', 16 * entry, 16 * entry + 16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  private find([high, low]: [number, number]): number | undefined {
    const size = this.slots.length;
    for (let slot = high % size; ; slot = slot + 1 === size ? 0 : slot + 1) {
      const entry = this.slots[slot] as number;
      if (entry === EMPTY_SLOT) return undefined;
      if (this.tags[2 * entry] === high && this.tags[2 * entry + 1] === low) return entry;
    }
  }

  private add(tag: [number, number]): number {
    if (this.used === this.lines.length) this.growEntries(Math.max(64, 2 * this.used));
    if (4 * (this.used + 1) > 3 * this.slots.length) this.rehash(2 * this.slots.length);
    const entry = this.used++;
    this.tags[2 * entry] = tag[0];
    this.tags[2 * entry + 1] = tag[1];
    // Removed until written (write counts it then).
    this.states[entry] = REMOVED;
    this.place(entry);
    return entry;
  }

  private place(entry: number): void {
    const size = this.slots.length;
    let slot = (this.tags[2 * entry] as number) % size;
    while (this.slots[slot] !== EMPTY_SLOT) slot = slot + 1 === size ? 0 : slot + 1;
    this.slots[slot] = entry;
  }

  private rehash(size: number): void {
    this.slots = new Uint32Array(size).fill(EMPTY_SLOT);
    for (let entry = 0; entry < this.used; entry++) this.place(entry);
  }

  private growEntries(capacity: number): void {
    const grow = <T extends Uint32Array | Uint8Array>(old: T, make: (n: number) => T, width: number): T => {
      const next = make(capacity * width);
      next.set(old);
      return next;
    };
    this.tags = grow(this.tags, (n) => new Uint32Array(n), 2);
    this.lines = grow(this.lines, (n) => new Uint32Array(n), 1);
    this.pairs = grow(this.pairs, (n) => new Uint32Array(n), 1);
    this.states = grow(this.states, (n) => new Uint8Array(n), 1);
    this.seenFlags = grow(this.seenFlags, (n) => new Uint8Array(n), 1);
    const ids = Buffer.alloc(16 * capacity);
    this.ids.copy(ids);
    this.ids = ids;
  }

  /** Loads the `n` entries of a done file's sections, one by one (each is placed in the table). */
  private load(n: number, at: PackedAt, other: ReadonlyMap<number, string | undefined>): void {
    this.growEntries(Math.max(64, n));
    this.slots = new Uint32Array(slotsFor(n)).fill(EMPTY_SLOT);
    for (let i = 0; i < n; i++) {
      const state = at.state(i);
      if (state === REMOVED) continue;
      const entry = this.add(at.tag(i));
      const line = at.line(i);
      this.lines[entry] = line;
      this.pairs[entry] = at.pair(i);
      this.states[entry] = state;
      at.id(i).copy(this.ids, 16 * entry);
      if (state === OTHER_ID) this.otherIds.set(entry, other.get(i));
      this.count++;
      if (line > this.ownMaxLine) this.ownMaxLine = line;
    }
  }

  /** The sections of a done file of version 2 or 3, without a copy, as the base of a table (never grown: see above). */
  static adopt(sections: DoneSections, n: number, other: ReadonlyMap<number, string | undefined>): DoneKeys {
    const base = new DoneKeys();
    base.tags = sections.tags;
    base.lines = sections.lines;
    base.pairs = sections.pairs;
    base.states = sections.states;
    base.ids = sections.ids;
    base.seenFlags = new Uint8Array(n);
    base.used = n;
    base.rehash(slotsFor(n));
    for (let entry = 0; entry < n; entry++) {
      const state = base.states[entry];
      if (state === REMOVED) continue;
      base.count++;
      if (state === OTHER_ID) base.otherIds.set(entry, other.get(entry));
      const line = base.lines[entry] as number;
      if (line > base.ownMaxLine) base.ownMaxLine = line;
    }
    const done = new DoneKeys();
    done.base = base;
    return done;
  }

  /** Built from the sections of a done file. */
  static fromSections(n: number, at: PackedAt, other: ReadonlyMap<number, string | undefined>): DoneKeys {
    const done = new DoneKeys();
    done.load(n, at, other);
    return done;
  }
}

