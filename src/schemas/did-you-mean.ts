/** "did you mean …" for a mistyped name: the closest candidate within a small edit distance. */

/** Edits between two names, a swap of two neighbouring letters counting as one (`wieght`, `wirte`). */
function distance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, (before[j - 2] as number) + 1);
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length] as number;
}

/** Case, `_`, `-` and spaces do not tell names apart for a person (`nothome`, `not-at-home`). */
function bare(name: string): string {
  return name.toLowerCase().replace(/[\s_-]+/g, '');
}

/**
 * The candidate closest to `typed` (case-insensitive, separators ignored), when it is close enough
 * to be a typo; a candidate that ends with what was typed after a separator (`weight` for
 * `parcel_weight`) counts as close.
 */
export function closest(typed: string, candidates: readonly string[]): string | undefined {
  const wanted = bare(typed);
  if (wanted === '') return undefined;
  let best: { name: string; score: number } | undefined;
  for (const name of candidates) {
    const score = distance(wanted, bare(name));
    if (best === undefined || score < best.score) best = { name, score };
  }
  const allowed = best === undefined ? 0 : Math.max(1, Math.floor(Math.max(wanted.length, bare(best.name).length) / 4));
  if (best !== undefined && best.score <= allowed) return best.name;
  const suffixed = candidates.filter((name) => new RegExp(`[_.:-]${typed.toLowerCase().replace(/[^a-z0-9]/g, '')}$`).test(name.toLowerCase()));
  return suffixed.length === 1 ? suffixed[0] : undefined;
}

/** `; did you mean in_transit?` or nothing. */
export function didYouMean(typed: string, candidates: readonly string[]): string {
  const match = closest(typed, candidates);
  return match === undefined ? '' : `; did you mean ${match}?`;
}
