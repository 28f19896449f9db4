/** The spec's window for observation times (2.3, 2.4); no zod here, so the clock-skew policy can load it cheaply. */

/** 1 January 2000 00:00:00 UTC, the earliest observation time the spec allows. */
export const MIN_OBSERVATION_TIME = 946_684_800;
/** Observation times may lie at most this many seconds in the future. */
export const MAX_FUTURE_SKEW_S = 300;
