import { SKEW_BOUND_S, TRUST_SKEW_ENV } from './policy.js';
import type { SkewNotice } from './policy.js';

/** How a clock skew is told to a person: one line, in the units people count in. */

const UNITS: readonly [number, string][] = [
  [86_400, 'd'],
  [3600, 'h'],
  [60, 'min'],
  [1, 's'],
];

/** `666_000` → `7 d 17 h`, `4500` → `1 h 15 min`, `75` → `1 min 15 s`, `42` → `42 s`: the two largest units. */
export function humaneDuration(seconds: number): string {
  let rest = Math.abs(Math.round(seconds));
  const parts: string[] = [];
  for (const [size, unit] of UNITS) {
    if (parts.length === 2) break;
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0 || parts.length > 0) parts.push(`${n} ${unit}`);
  }
  const shown = parts.filter((p) => !p.startsWith('0 '));
  return shown.length === 0 ? '0 s' : shown.join(' ');
}

/** Said once per command when a service that is no sandbox sends the test-clock header. */
export const UNTRUSTED_TEST_CLOCK_WARNING =
  'The service says its clock is a test clock (Parcels-Test-Clock), but it is not the sandbox, a loopback address or a profile marked as a sandbox: its Date is judged as any service\'s (if it is a sandbox of yours: parcels config set sandbox yes)';

/** The one-line warning, shown once per target and change of the skew. */
export function skewWarning(notice: SkewNotice): string {
  const direction = notice.seconds < 0 ? 'behind' : 'ahead of';
  const head = `The service's clock is ${humaneDuration(notice.seconds)} ${direction} this machine's (from its Date header)`;
  if (notice.applied) return `${head}; times given as now, -15m or today 14:30 are corrected by it`;
  return `${head}; not corrected, being over ${humaneDuration(SKEW_BOUND_S)}: fix the clock that is wrong, or set ${TRUST_SKEW_ENV}=1 to correct times by it`;
}
