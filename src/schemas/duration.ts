/** Durations as people write them: `90s`, `15m`, `36h`, `2d`, `1h30m`, `500ms`. */
const PART = /(\d+)(ms|d|h|m|s)/gy;
const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Milliseconds of a duration text, or undefined when it is not one (e.g. `36`, `1.5h`, `-2h`). */
export function parseDuration(text: string): number | undefined {
  if (text === '') return undefined;
  PART.lastIndex = 0;
  let total = 0;
  let matched = 0;
  for (let m = PART.exec(text); m !== null; m = PART.exec(text)) {
    total += Number(m[1]) * (UNIT_MS[m[2] as string] as number);
    matched = PART.lastIndex;
  }
  return matched === text.length && Number.isSafeInteger(total) ? total : undefined;
}
