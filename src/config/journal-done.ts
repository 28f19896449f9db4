import { closeSync, fstatSync, readSync } from 'node:fs';
import { openOwnFile } from './atomic.js';

/**
 * The lines of a batch that are confirmed, packed in typed arrays indexed by line number (line
 * numbers are dense), in pages of 65,536 lines: a million-line batch costs 25 bytes a line, never a
 * million objects. Per
 * line: a state byte, a 64-bit tag of its Idempotency-Key (to tell the same line from a changed one
 * under a reused batch id) and its entry id as 16 bytes when it is a UUID (other ids in a map).
 * The same layout is the journal's compact "done" form on disk (`toChunks`, `read`), from which a
 * re-run reads the pages as it goes instead of holding them all.
 */

const UUID_HEX = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})$/;

const NOT_DONE = 0;
const UUID_ID = 1;
const OTHER_ID = 2;

/** FNV-1a over the key's UTF-16 code units, from a given offset basis. */
function fnv(text: string, basis: number): number {
  let hash = basis;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

export const DONE_FILE_VERSION = 1;

/**
 * The first line of a done file: what follows it is the state bytes, the tags (two 32-bit words in
 * this machine's byte order) and the 16-byte ids of line numbers 0 to lines - 1, section by section.
 */
interface DoneFileHeader {
  v: number;
  lines: number;
  count: number;
  /** Entry ids that are not UUIDs, by line (null: the answer had none). */
  other: Array<[number, string | null]>;
}

export class DoneFileError extends Error {
  override readonly name = 'DoneFileError';
}

/** Line numbers per page: pages are added as lines come, never copied (a grown array would briefly be there twice). */
const PAGE = 65_536;

interface Page {
  state: Uint8Array;
  /** Two 32-bit halves of the key's tag per line. */
  tags: Uint32Array;
  /** 16 bytes of UUID per line. */
  ids: Buffer;
}

/** Bytes of a line in a done file: its state, its tag, its id. */
const LINE_BYTES = 1 + 8 + 16;

function newPage(): Page {
  return { state: new Uint8Array(PAGE), tags: new Uint32Array(2 * PAGE), ids: Buffer.alloc(16 * PAGE) };
}

/** Where a done file keeps its sections, for loading its pages one at a time. */
interface DoneSource {
  path: string;
  /** Line numbers the file covers (0 to lines - 1). */
  lines: number;
  /** Byte offset of the state section; the tags and the ids sections follow it. */
  offset: number;
}

/** Clean pages of a done file kept in memory at once: lines are asked for in increasing order. */
const CACHED_PAGES = 2;

export class DoneLines {
  private readonly pages: Array<Page | undefined> = [];
  /** Pages changed since they were read: they stay in memory. */
  private readonly dirty = new Set<number>();
  /** Clean pages read from the file, least recently used first. */
  private readonly cached: number[] = [];
  private readonly otherIds = new Map<number, string | undefined>();
  private count = 0;
  /** Highest line number ever confirmed. */
  maxLine = 0;

  private constructor(private readonly source?: DoneSource) {}

  /** Empty. */
  static empty(): DoneLines {
    return new DoneLines();
  }

  /**
   * A done file, checked (its header and its size), whose pages are read when a line of theirs is
   * asked for; only the last few are kept, so a re-run going through the lines in order holds a
   * page or two, not the whole file. The file must stay until the journal is closed.
   */
  static read(path: string): DoneLines {
    const fd = openOwnFile(path, 'read');
    let header: DoneFileHeader;
    let offset: number;
    try {
      ({ header, offset } = readHeader(fd, path));
      const size = fstatSync(fd).size;
      const expected = offset + LINE_BYTES * header.lines;
      if (size !== expected) throw new DoneFileError(`${path}: ${size} bytes where its header says ${expected}`);
    } finally {
      closeSync(fd);
    }
    const done = new DoneLines({ path, lines: header.lines, offset });
    for (const [line, id] of header.other) done.otherIds.set(line, id ?? undefined);
    done.count = header.count;
    done.maxLine = Math.max(0, header.lines - 1);
    return done;
  }

  get size(): number {
    return this.count;
  }

  set(line: number, key: string, id: string | undefined): void {
    const page = this.page(line, true) as Page;
    const at = line % PAGE;
    if (page.state[at] === NOT_DONE) this.count++;
    page.tags[2 * at] = fnv(key, 0x811c9dc5);
    page.tags[2 * at + 1] = fnv(key, 0x050c5d1f);
    const uuid = id === undefined ? null : UUID_HEX.exec(id);
    if (uuid !== null) {
      page.ids.write(uuid.slice(1).join(''), 16 * at, 'hex');
      this.otherIds.delete(line);
      page.state[at] = UUID_ID;
    } else {
      this.otherIds.set(line, id);
      page.state[at] = OTHER_ID;
    }
    if (line > this.maxLine) this.maxLine = line;
  }

  delete(line: number): void {
    const page = this.page(line, false);
    if (page === undefined || page.state[line % PAGE] === NOT_DONE) return;
    (this.page(line, true) as Page).state[line % PAGE] = NOT_DONE;
    this.otherIds.delete(line);
    this.count--;
  }

  /** Confirmed with this same key. */
  has(line: number, key: string): boolean {
    const page = this.page(line, false);
    const at = line % PAGE;
    return page !== undefined && page.state[at] !== NOT_DONE && page.tags[2 * at] === fnv(key, 0x811c9dc5) && page.tags[2 * at + 1] === fnv(key, 0x050c5d1f);
  }

  entryId(line: number): string | undefined {
    const page = this.page(line, false);
    const at = line % PAGE;
    if (page === undefined || page.state[at] === NOT_DONE) return undefined;
    if (page.state[at] === OTHER_ID) return this.otherIds.get(line);
    const hex = page.ids.toString('hex', 16 * at, 16 * at + 16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  /** The compact form, as chunks to write one after the other (views of the pages, every page read). */
  toChunks(): Uint8Array[] {
    const lines = this.maxLine + 1;
    for (let line = 0; line < lines; line += PAGE) this.page(line, true);
    const other = [...this.otherIds].map(([line, id]): [number, string | null] => [line, id ?? null]);
    const header: DoneFileHeader = { v: DONE_FILE_VERSION, lines, count: this.count, other };
    const views: Uint8Array[] = [Buffer.from(`${JSON.stringify(header)}\n`)];
    for (const part of ['state', 'tags', 'ids'] as const) {
      for (let first = 0; first < lines; first += PAGE) {
        const array = (this.pages[first / PAGE] as Page)[part];
        views.push(new Uint8Array(array.buffer, array.byteOffset, (array.byteLength / PAGE) * Math.min(PAGE, lines - first)));
      }
    }
    return views;
  }

  /**
   * The page of `line`: read from the done file when it covers it, else new. A page about to
   * change is kept (`forWrite`); a page only read may be dropped again later. Undefined for a read
   * of a line no page holds.
   */
  private page(line: number, forWrite: boolean): Page | undefined {
    const index = Math.floor(line / PAGE);
    let page = this.pages[index];
    if (page === undefined) {
      const fromFile = this.source !== undefined && index * PAGE < this.source.lines;
      if (!fromFile && !forWrite) return undefined;
      page = fromFile ? this.load(index) : newPage();
      this.pages[index] = page;
      if (fromFile && !forWrite) this.remember(index);
    }
    if (forWrite && !this.dirty.has(index)) {
      this.dirty.add(index);
      const cachedAt = this.cached.indexOf(index);
      if (cachedAt !== -1) this.cached.splice(cachedAt, 1);
    }
    return page;
  }

  private remember(index: number): void {
    this.cached.push(index);
    while (this.cached.length > CACHED_PAGES) this.pages[this.cached.shift() as number] = undefined;
  }

  private load(index: number): Page {
    const source = this.source as DoneSource;
    const page = newPage();
    const first = index * PAGE;
    const count = Math.min(PAGE, source.lines - first);
    const fd = openOwnFile(source.path, 'read');
    try {
      let section = source.offset;
      for (const part of ['state', 'tags', 'ids'] as const) {
        const array = page[part];
        const width = array.byteLength / PAGE;
        const target = new Uint8Array(array.buffer, array.byteOffset, width * count);
        if (readSync(fd, target, 0, target.byteLength, section + width * first) !== target.byteLength) throw new DoneFileError(`${source.path}: shorter than its header says`);
        section += width * source.lines;
      }
    } finally {
      closeSync(fd);
    }
    return page;
  }
}

function readHeader(fd: number, path: string): { header: DoneFileHeader; offset: number } {
  let text = Buffer.alloc(0);
  for (let at = 0; ; ) {
    const chunk = Buffer.alloc(64 * 1024);
    const read = readSync(fd, chunk, 0, chunk.length, at);
    const newline = chunk.subarray(0, read).indexOf(0x0a);
    text = Buffer.concat([text, chunk.subarray(0, newline === -1 ? read : newline)]);
    if (newline !== -1) {
      let header: DoneFileHeader;
      try {
        header = JSON.parse(text.toString('utf8')) as DoneFileHeader;
      } catch {
        throw new DoneFileError(`${path}: not a done file`);
      }
      if (header.v !== DONE_FILE_VERSION || !Number.isInteger(header.lines) || header.lines < 0 || !Array.isArray(header.other)) {
        throw new DoneFileError(`${path}: not a done file of version ${DONE_FILE_VERSION}`);
      }
      return { header, offset: text.length + 1 };
    }
    if (read === 0) throw new DoneFileError(`${path}: not a done file`);
    at += read;
  }
}
