/**
 * The confirmed requests of a batch that no line of this input asks for any more, by the line they
 * had and their pairing tag (src/bulk/pairing.ts): where an edited line's earlier version is found.
 * Packed by line (a counting sort: two 32-bit words a request and one a line), never a map of a
 * million objects.
 */

/** Calls `each` once for every such request: its line, its pairing tag and a number that names it to `idOf`. */
export type VisitEarlier = (each: (line: number, pair: number, ref: number) => void) => void;

export class EarlierLines {
  private constructor(
    /** Line l's requests are slots starts[l] to starts[l + 1] - 1. */
    private readonly starts: Uint32Array,
    private readonly pairs: Uint32Array,
    private readonly refs: Uint32Array,
    private readonly idOf: (ref: number) => string | undefined,
  ) {}

  static readonly none = new EarlierLines(new Uint32Array(1), new Uint32Array(0), new Uint32Array(0), () => undefined);

  static build(visit: VisitEarlier, idOf: (ref: number) => string | undefined): EarlierLines {
    let count = 0;
    let maxLine = 0;
    visit((line) => {
      count++;
      if (line > maxLine) maxLine = line;
    });
    if (count === 0) return EarlierLines.none;
    const starts = new Uint32Array(maxLine + 2);
    visit((line) => {
      starts[line + 1] = (starts[line + 1] as number) + 1;
    });
    for (let line = 1; line < starts.length; line++) starts[line] = (starts[line] as number) + (starts[line - 1] as number);
    const next = starts.slice(0, maxLine + 1);
    const pairs = new Uint32Array(count);
    const refs = new Uint32Array(count);
    visit((line, pair, ref) => {
      const slot = next[line] as number;
      next[line] = slot + 1;
      pairs[slot] = pair;
      refs[slot] = ref;
    });
    return new EarlierLines(starts, pairs, refs, idOf);
  }

  get size(): number {
    return this.pairs.length;
  }

  /**
   * The earlier request at `line` with the pairing tag `pair`: the parcel it created (its entry id,
   * when the answer had one). None for an unknown tag (0: confirmed before tags were kept).
   */
  at(line: number, pair: number): { entryId: string | undefined } | undefined {
    if (pair === 0 || line + 1 >= this.starts.length) return undefined;
    for (let slot = this.starts[line] as number; slot < (this.starts[line + 1] as number); slot++) {
      if (this.pairs[slot] === pair) return { entryId: this.idOf(this.refs[slot] as number) };
    }
    return undefined;
  }
}
