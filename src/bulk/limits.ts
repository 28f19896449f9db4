/** Requests in flight of a bulk run: the default of --concurrency, and its most. */
export const DEFAULT_CONCURRENCY = 8;
export const MAX_CONCURRENCY = 64;
/** Extra attempts per line of a bulk run when --retries, PARCELS_RETRIES and the profile set none. */
export const DEFAULT_BULK_RETRIES = 10;
