/** The journal batch of a target's offline outbox (kept apart so the created index reads it without importing the outbox). */
export const OUTBOX_BATCH = 'outbox';
