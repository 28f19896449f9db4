/**
 * The lines earlier runs confirmed, packed: a re-run of a million-line batch must not hold a
 * million objects. Per line: a 64-bit tag of its Idempotency-Key (to tell the same line from a
 * changed one under a reused batch id), its status and its entry id as 16 bytes when it is a UUID.
 */

const UUID_HEX = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})$/;

/** FNV-1a over the key's UTF-16 code units, from a given offset basis. */
function fnv(text: string, basis: number): number {
  let hash = basis;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

export class DoneLines {
  /** Line number → slot + 1 (0: not done); line numbers are dense, so an array beats a Map of a million entries. */
  private slotOfLine = new Int32Array(1024);
  private count = 0;
  private tags = new Uint32Array(2 * 1024);
  private ids = Buffer.alloc(16 * 1024);
  private readonly otherIds = new Map<number, string | undefined>();
  private used = 0;
  /** Highest line number ever confirmed. */
  maxLine = 0;

  get size(): number {
    return this.count;
  }

  set(line: number, key: string, id: string | undefined): void {
    let slot = this.slot(line);
    if (slot === undefined) {
      slot = this.used++;
      this.grow(line);
      this.slotOfLine[line] = slot + 1;
      this.count++;
    }
    this.tags[2 * slot] = fnv(key, 0x811c9dc5);
    this.tags[2 * slot + 1] = fnv(key, 0x050c5d1f);
    const uuid = id === undefined ? null : UUID_HEX.exec(id);
    if (uuid !== null) {
      this.ids.write(uuid.slice(1).join(''), 16 * slot, 'hex');
      this.otherIds.delete(slot);
    } else this.otherIds.set(slot, id);
    this.maxLine = Math.max(this.maxLine, line);
  }

  delete(line: number): void {
    if (this.slot(line) === undefined) return;
    this.slotOfLine[line] = 0;
    this.count--;
  }

  /** Confirmed with this same key. */
  has(line: number, key: string): boolean {
    const slot = this.slot(line);
    return slot !== undefined && this.tags[2 * slot] === fnv(key, 0x811c9dc5) && this.tags[2 * slot + 1] === fnv(key, 0x050c5d1f);
  }

  entryId(line: number): string | undefined {
    const slot = this.slot(line);
    if (slot === undefined) return undefined;
    if (this.otherIds.has(slot)) return this.otherIds.get(slot);
    const hex = this.ids.toString('hex', 16 * slot, 16 * slot + 16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  private slot(line: number): number | undefined {
    const stored = line < this.slotOfLine.length ? (this.slotOfLine[line] ?? 0) : 0;
    return stored === 0 ? undefined : stored - 1;
  }

  private grow(line: number): void {
    if (line >= this.slotOfLine.length) {
      const bigger = new Int32Array(Math.max(line + 1, this.slotOfLine.length * 2));
      bigger.set(this.slotOfLine);
      this.slotOfLine = bigger;
    }
    if (this.used * 2 <= this.tags.length) return;
    const tags = new Uint32Array(this.tags.length * 2);
    tags.set(this.tags);
    this.tags = tags;
    const ids = Buffer.alloc(this.ids.length * 2);
    this.ids.copy(ids);
    this.ids = ids;
  }
}
