import { doneFileChunks, readDoneFile } from './journal-done-file.js';
import type { DoneSections, PackedAt } from './journal-done-file.js';

/**
 * The requests of a batch that are confirmed, by request identity (a bulk line's key does not
 * depend on its line number, so neither does this), packed in typed arrays: a million-line batch
 * costs ~45 bytes a request, never a million objects. Per request: a 64-bit tag of its identity,
 * the line it had when confirmed (to name it), its entry id as 16 bytes when it is a UUID (other ids
 * in a map) and whether this run met it again. The same entries are the journal's compact "done"
 * file on disk (`toChunks`, `read`: journal-done-file.ts).
 */

const UUID_HEX = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})$/;

const REMOVED = 0;
const UUID_ID = 1;
const OTHER_ID = 2;

/** FNV-1a over the identity's UTF-16 code units, from a given offset basis: two of them make the 64-bit tag. */
function fnv(text: string, basis: number): number {
  let hash = basis;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

export function tagOf(identity: string): [number, number] {
  return [fnv(identity, 0x811c9dc5), fnv(identity, 0x050c5d1f)];
}

const EMPTY_SLOT = 0xffffffff;

export class DoneKeys {
  // ArrayBufferLike: a done file's sections are adopted as they were read.
  private tags: Uint32Array<ArrayBufferLike> = new Uint32Array(0);
  private lines: Uint32Array<ArrayBufferLike> = new Uint32Array(0);
  private states: Uint8Array<ArrayBufferLike> = new Uint8Array(0);
  private ids: Buffer = Buffer.alloc(0);
  private seenFlags = new Uint8Array(0);
  private readonly otherIds = new Map<number, string | undefined>();
  /** Entries written (removed ones included). */
  private used = 0;
  private count = 0;
  /** Open addressing: the entry of each slot, EMPTY_SLOT for none. */
  private slots = new Uint32Array(16).fill(EMPTY_SLOT);
  /** Highest line number ever confirmed. */
  maxLine = 0;

  static empty(): DoneKeys {
    return new DoneKeys();
  }

  get size(): number {
    return this.count;
  }

  set(identity: string, line: number, id: string | undefined): void {
    this.setTag(tagOf(identity), line, id);
  }

  delete(identity: string): void {
    const entry = this.find(tagOf(identity));
    if (entry === undefined || this.states[entry] === REMOVED) return;
    this.states[entry] = REMOVED;
    this.otherIds.delete(entry);
    this.count--;
  }

  /** Confirmed. */
  has(identity: string): boolean {
    const entry = this.find(tagOf(identity));
    return entry !== undefined && this.states[entry] !== REMOVED;
  }

  entryId(identity: string): string | undefined {
    const entry = this.find(tagOf(identity));
    return entry === undefined ? undefined : this.idOf(entry);
  }

  /** Marks a confirmed request as met again by this run (see `unseen`). */
  see(identity: string): void {
    const entry = this.find(tagOf(identity));
    if (entry !== undefined) this.seenFlags[entry] = 1;
  }

  /** Confirmed requests this run has not met, by the line they had: what edited lines once created. */
  unseen(): Map<number, string | undefined> {
    const byLine = new Map<number, string | undefined>();
    for (let entry = 0; entry < this.used; entry++) {
      if (this.states[entry] !== REMOVED && this.seenFlags[entry] === 0) byLine.set(this.lines[entry] as number, this.idOf(entry));
    }
    return byLine;
  }

  /** The compact form, as chunks to write one after the other. */
  toChunks(): Uint8Array[] {
    if (this.count === this.used) {
      // Nothing removed: the sections are the arrays themselves, no copy of a million entries.
      const other = [...this.otherIds].map(([entry, id]): [number, string | null] => [entry, id ?? null]).sort(([a], [b]) => a - b);
      return doneFileChunks({ tags: this.tags, lines: this.lines, states: this.states, ids: this.ids }, this.used, other);
    }
    const live: number[] = [];
    for (let entry = 0; entry < this.used; entry++) if (this.states[entry] !== REMOVED) live.push(entry);
    const n = live.length;
    const tags = new Uint32Array(2 * n);
    const lines = new Uint32Array(n);
    const states = new Uint8Array(n);
    const ids = Buffer.alloc(16 * n);
    const other: Array<[number, string | null]> = [];
    live.forEach((entry, at) => {
      tags[2 * at] = this.tags[2 * entry] as number;
      tags[2 * at + 1] = this.tags[2 * entry + 1] as number;
      lines[at] = this.lines[entry] as number;
      states[at] = this.states[entry] as number;
      this.ids.copy(ids, 16 * at, 16 * entry, 16 * entry + 16);
      if (this.states[entry] === OTHER_ID) other.push([at, this.otherIds.get(entry) ?? null]);
    });
    return doneFileChunks({ tags, lines, states, ids }, n, other);
  }

  /** A done file (journal-done-file.ts) as a table. */
  static read(path: string): DoneKeys {
    const file = readDoneFile(path);
    return file.v === 2 ? DoneKeys.adopt(file.sections, file.count, file.other) : DoneKeys.fromSections(file.count, file.at, file.other);
  }

  private setTag(tag: [number, number], line: number, id: string | undefined): void {
    let entry = this.find(tag);
    if (entry === undefined) {
      entry = this.add(tag);
    } else if (this.states[entry] !== REMOVED) this.count--;
    this.count++;
    this.lines[entry] = line;
    const uuid = id === undefined ? null : UUID_HEX.exec(id);
    if (uuid !== null) {
      this.ids.write(uuid.slice(1).join(''), 16 * entry, 'hex');
      this.otherIds.delete(entry);
      this.states[entry] = UUID_ID;
    } else {
      this.otherIds.set(entry, id);
      this.states[entry] = OTHER_ID;
    }
    if (line > this.maxLine) this.maxLine = line;
  }

  private idOf(entry: number): string | undefined {
    if (this.states[entry] === REMOVED) return undefined;
    if (this.states[entry] === OTHER_ID) return this.otherIds.get(entry);
    const hex = this.ids.toString('hex', 16 * entry, 16 * entry + 16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  private find([high, low]: [number, number]): number | undefined {
    const mask = this.slots.length - 1;
    for (let slot = high & mask; ; slot = (slot + 1) & mask) {
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
    this.place(entry);
    return entry;
  }

  private place(entry: number): void {
    const mask = this.slots.length - 1;
    let slot = (this.tags[2 * entry] as number) & mask;
    while (this.slots[slot] !== EMPTY_SLOT) slot = (slot + 1) & mask;
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
    this.states = grow(this.states, (n) => new Uint8Array(n), 1);
    this.seenFlags = grow(this.seenFlags, (n) => new Uint8Array(n), 1);
    const ids = Buffer.alloc(16 * capacity);
    this.ids.copy(ids);
    this.ids = ids;
  }

  /** Loads the `n` entries of a done file's sections, one by one (each is placed in the table). */
  private load(n: number, at: PackedAt, other: ReadonlyMap<number, string | undefined>): void {
    this.growEntries(Math.max(64, n));
    let size = 16;
    while (4 * n > 3 * size) size *= 2;
    this.slots = new Uint32Array(size).fill(EMPTY_SLOT);
    for (let i = 0; i < n; i++) {
      const state = at.state(i);
      if (state === REMOVED) continue;
      const entry = this.add(at.tag(i));
      const line = at.line(i);
      this.lines[entry] = line;
      this.states[entry] = state;
      at.id(i).copy(this.ids, 16 * entry);
      if (state === OTHER_ID) this.otherIds.set(entry, other.get(i));
      this.count++;
      if (line > this.maxLine) this.maxLine = line;
    }
  }

  /** The sections of a done file of version 2 as this table's entries, without a copy (they are copied when it grows). */
  static adopt(sections: DoneSections, n: number, other: ReadonlyMap<number, string | undefined>): DoneKeys {
    const done = new DoneKeys();
    done.tags = sections.tags;
    done.lines = sections.lines;
    done.states = sections.states;
    done.ids = sections.ids;
    done.seenFlags = new Uint8Array(n);
    done.used = n;
    let size = 16;
    while (4 * n > 3 * size) size *= 2;
    done.rehash(size);
    for (let entry = 0; entry < n; entry++) {
      const state = done.states[entry];
      if (state === REMOVED) continue;
      done.count++;
      if (state === OTHER_ID) done.otherIds.set(entry, other.get(entry));
      const line = done.lines[entry] as number;
      if (line > done.maxLine) done.maxLine = line;
    }
    return done;
  }

  /** Built from the sections of a done file. */
  static fromSections(n: number, at: PackedAt, other: ReadonlyMap<number, string | undefined>): DoneKeys {
    const done = new DoneKeys();
    done.load(n, at, other);
    return done;
  }
}

