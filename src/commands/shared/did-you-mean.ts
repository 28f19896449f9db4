/** "did you mean …" for a mistyped name: the closest candidate within a small edit distance. */

function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current.push(Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost));
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/** The candidate closest to `typed` (case-insensitive), when it is close enough to be a typo. */
export function closest(typed: string, candidates: readonly string[]): string | undefined {
  const wanted = typed.toLowerCase();
  let best: { name: string; score: number } | undefined;
  for (const name of candidates) {
    const score = distance(wanted, name.toLowerCase());
    if (best === undefined || score < best.score) best = { name, score };
  }
  if (best === undefined) return undefined;
  const allowed = Math.max(1, Math.floor(Math.max(wanted.length, best.name.length) / 3));
  return best.score <= allowed ? best.name : undefined;
}

/** `; did you mean in_transit?` or nothing. */
export function didYouMean(typed: string, candidates: readonly string[]): string {
  const match = closest(typed, candidates);
  return match === undefined ? '' : `; did you mean ${match}?`;
}
