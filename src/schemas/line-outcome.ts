/**
 * What became of one line of a bulk run, a one-shot write or an outbox entry: one vocabulary,
 * written once here and shared by the result lines (`outcome`), the summaries and the README.
 */
export const LINE_OUTCOMES = ['created', 'already_done', 'replayed', 'queued', 'skipped', 'failed', 'not_sent'] as const;

export type LineOutcome = (typeof LINE_OUTCOMES)[number];

/** What each outcome means, as the README and `--help` say it. */
export const LINE_OUTCOME_MEANING: Readonly<Record<LineOutcome, string>> = {
  created: 'sent and confirmed by the service',
  already_done: 'not sent: an earlier run of this batch had it confirmed (its journal holds it)',
  replayed: 'sent; the service answered with its stored earlier result (Idempotent-Replayed)',
  queued: 'not sent: kept in the outbox to send later',
  skipped: 'not sent on purpose (it matches a line an earlier batch created, or a rule left it out)',
  failed: 'refused by the service, out of its reach after the retries, or invalid',
  not_sent: 'not sent: the run stopped (Ctrl-C, an outage) before it; the next run sends it with the same key',
};
