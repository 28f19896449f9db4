import type { ResultLine } from '../types.js';

/**
 * The first failed lines of a run, kept as they are emitted, for the summary to list at a terminal
 * (the full list is in the results file); the rest are only counted.
 */

/** Failed lines named one by one in a summary, at most. */
export const FAILED_SHOWN = 10;

export interface FailedLine {
  line: number;
  end_line?: number | undefined;
  /** Why: the service's status and code, or the local rule, and the message. */
  reason: string;
}

export class FailedLines {
  readonly first: FailedLine[] = [];
  count = 0;

  add(result: ResultLine): void {
    if (result.outcome !== 'failed') return;
    this.count++;
    if (this.first.length < FAILED_SHOWN) this.first.push({ line: result.line, end_line: result.end_line, reason: failureReason(result) });
  }
}

/** `422 validation_failed: postal_code …`, or a local rule's message (an invalid line), or a network failure. */
export function failureReason(result: ResultLine): string {
  const error = result.error;
  if (error === undefined) return 'failed';
  if (error.code === 'invalid_line') return error.message;
  return `${error.status === undefined ? '' : `${error.status} `}${error.code}: ${error.message}`;
}
