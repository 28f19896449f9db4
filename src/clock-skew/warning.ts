import { spokenDuration } from '../schemas/time-text.js';
import { SKEW_BOUND_S, TRUST_SKEW_ENV } from './policy.js';
import type { SkewNotice } from './policy.js';

/** How a clock skew is told to a person: one line, its size in the two largest units (`1 h 15 m`). */

/** Said once per command when a service that is no sandbox sends the test-clock header. */
export const UNTRUSTED_TEST_CLOCK_WARNING =
  'The service says its clock is a test clock (Parcels-Test-Clock), but it is not the sandbox, a loopback address or a profile marked as a sandbox: its Date is judged as any service\'s (if it is a sandbox of yours: parcels config set sandbox yes)';

/** The one-line warning, shown once per target and change of the skew. */
export function skewWarning(notice: SkewNotice): string {
  const direction = notice.seconds < 0 ? 'behind' : 'ahead of';
  const head = `The service's clock is ${spokenDuration(notice.seconds)} ${direction} this machine's (from its Date header)`;
  if (notice.seenOnce === true) return `${head}; one answer says so: nothing is corrected until another agrees`;
  if (notice.applied) return `${head}; times given as now, -15m or today 14:30 are corrected by it`;
  return `${head}; not corrected, being over ${spokenDuration(SKEW_BOUND_S)}: fix the clock that is wrong, or set ${TRUST_SKEW_ENV}=1 to correct times by it`;
}
