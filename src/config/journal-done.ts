import { closeSync, openSync, readSync } from 'node:fs';

/**
 * The lines of a batch that are confirmed, packed in typed arrays indexed by line number (line
 * numbers are dense), in pages of 65,536 lines: a million-line batch costs 25 bytes a line, never a
 * million objects. Per
 * line: a state byte, a 64-bit tag of its Idempotency-Key (to tell the same line from a changed one
 * under a reused batch id) and its entry id as 16 bytes when it is a UUID (other ids in a map).
 * The same layout is the journal's compact "done" form on disk (see `toChunks` / `readDoneFile`).
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

function newPage(): Page {
  return { state: new Uint8Array(PAGE), tags: new Uint32Array(2 * PAGE), ids: Buffer.alloc(16 * PAGE) };
}

export class DoneLines {
  private readonly pages: Page[] = [];
  private readonly otherIds = new Map<number, string | undefined>();
  private count = 0;
  /** Highest line number ever confirmed. */
  maxLine = 0;

  get size(): number {
    return this.count;
  }

  set(line: number, key: string, id: string | undefined): void {
    const page = this.pageFor(line);
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
    const page = this.pages[Math.floor(line / PAGE)];
    if (page === undefined || page.state[line % PAGE] === NOT_DONE) return;
    page.state[line % PAGE] = NOT_DONE;
    this.otherIds.delete(line);
    this.count--;
  }

  /** Confirmed with this same key. */
  has(line: number, key: string): boolean {
    const page = this.pages[Math.floor(line / PAGE)];
    const at = line % PAGE;
    return page !== undefined && page.state[at] !== NOT_DONE && page.tags[2 * at] === fnv(key, 0x811c9dc5) && page.tags[2 * at + 1] === fnv(key, 0x050c5d1f);
  }

  entryId(line: number): string | undefined {
    const page = this.pages[Math.floor(line / PAGE)];
    const at = line % PAGE;
    if (page === undefined || page.state[at] === NOT_DONE) return undefined;
    if (page.state[at] === OTHER_ID) return this.otherIds.get(line);
    const hex = page.ids.toString('hex', 16 * at, 16 * at + 16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  /** The compact form, as chunks to write one after the other (views of the pages, not copies). */
  toChunks(): Uint8Array[] {
    const lines = this.maxLine + 1;
    const other = [...this.otherIds].map(([line, id]): [number, string | null] => [line, id ?? null]);
    const header: DoneFileHeader = { v: DONE_FILE_VERSION, lines, count: this.count, other };
    return [Buffer.from(`${JSON.stringify(header)}\n`), ...this.sections(lines)];
  }

  /** Reads a compact form straight into pages (no copy of the file in between). */
  static read(path: string): DoneLines {
    const fd = openSync(path, 'r');
    try {
      const { header, offset } = readHeader(fd, path);
      const done = new DoneLines();
      for (let line = 0; line < header.lines; line += PAGE) done.pageFor(line);
      let at = offset;
      for (const target of done.sections(header.lines)) {
        if (readSync(fd, target, 0, target.byteLength, at) !== target.byteLength) throw new DoneFileError(`${path}: shorter than its header says`);
        at += target.byteLength;
      }
      if (readSync(fd, Buffer.alloc(1), 0, 1, at) !== 0) throw new DoneFileError(`${path}: longer than its header says`);
      for (const [line, id] of header.other) done.otherIds.set(line, id ?? undefined);
      for (let line = 0; line < header.lines; line++) {
        if ((done.pages[Math.floor(line / PAGE)] as Page).state[line % PAGE] === NOT_DONE) continue;
        done.count++;
        done.maxLine = line;
      }
      if (done.count !== header.count) throw new DoneFileError(`${path}: ${done.count} lines where its header says ${header.count}`);
      return done;
    } finally {
      closeSync(fd);
    }
  }

  /** Views of lines 0 to lines - 1: every page's states, then every page's tags, then every page's ids. */
  private sections(lines: number): Uint8Array[] {
    const views: Uint8Array[] = [];
    for (const part of ['state', 'tags', 'ids'] as const) {
      const width = part === 'state' ? 1 : part === 'tags' ? 8 : 16;
      for (let first = 0; first < lines; first += PAGE) {
        const array = (this.pages[first / PAGE] as Page)[part];
        views.push(new Uint8Array(array.buffer, array.byteOffset, width * Math.min(PAGE, lines - first)));
      }
    }
    return views;
  }

  private pageFor(line: number): Page {
    const index = Math.floor(line / PAGE);
    while (this.pages.length <= index) this.pages.push(newPage());
    return this.pages[index] as Page;
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
