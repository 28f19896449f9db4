/** How a clock skew between this machine and the service is told to the user (see src/config/clock-skew.ts). */

/** A skew this large is worth a warning (the service accepts observation times up to five minutes ahead). */
export const SKEW_WARN_S = 60;

/** `600` → `10 min`, `75` → `1 min 15 s`, `42` → `42 s`. */
function amount(seconds: number): string {
  const abs = Math.abs(seconds);
  if (abs < 60) return `${abs} s`;
  const min = Math.floor(abs / 60);
  const rest = abs % 60;
  return rest === 0 ? `${min} min` : `${min} min ${rest} s`;
}

/** The one-line warning shown once per command for a skew above SKEW_WARN_S. */
export function skewWarning(seconds: number): string {
  const direction = seconds < 0 ? 'behind' : 'ahead of';
  return (
    `The service's clock is ${amount(seconds)} ${direction} this machine's (${seconds > 0 ? '+' : ''}${seconds} s, from its Date header); ` +
    'times given as now, -15m or today 14:30 are corrected by it'
  );
}
