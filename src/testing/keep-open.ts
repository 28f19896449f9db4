/**
 * Keeping a failed test file's sandbox open for a while, so its developer can look at it in the
 * inspector: only on a developer's machine (CI unset), and never for longer than KEEP_OPEN_MAX_MS.
 */
import { parseDuration } from '../schemas/duration.js';
import { waitText } from '../schemas/time-text.js';
import type { Duration } from './types.js';

/** The longest a failed file's sandbox is kept: a forgotten run ends on its own. */
export const KEEP_OPEN_MAX_MS = 3_600_000;

/** `keepOpenOnFailure` in milliseconds; 0 when not asked. Throws a RangeError naming the option's rule. */
export function keepOpenMs(option: Duration | number | undefined): number {
  if (option === undefined) return 0;
  const ms = typeof option === 'number' ? option : parseDuration(option);
  if (ms === undefined || !Number.isSafeInteger(ms) || ms < 0 || ms > KEEP_OPEN_MAX_MS) {
    throw new RangeError(`keepOpenOnFailure must be a duration like '10m' (or whole milliseconds) up to 1h; got ${JSON.stringify(option)}`);
  }
  return ms;
}

/** Whether this run is a CI job's (`CI` set to anything but an empty text): nothing is kept open there. */
export function inCi(env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.CI ?? '') !== '';
}

/**
 * Tells the developer (stderr) where the failed file's sandbox is and how long it stays, then waits
 * that long. The wait holds the test file's last hook, and so the run, open: Ctrl+C ends it sooner.
 */
export async function holdOpen(ms: number, url: string, inspectorLink: string | undefined): Promise<void> {
  const inspector = inspectorLink === undefined ? '' : `\n  inspector: ${inspectorLink}`;
  process.stderr.write(`parcels/testing: a test failed; its sandbox ${url} stays open for ${waitText(ms)} (keepOpenOnFailure; Ctrl+C ends it sooner)${inspector}\n`);
  await new Promise((resolve) => setTimeout(resolve, ms));
}
