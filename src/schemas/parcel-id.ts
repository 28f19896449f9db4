import * as z from 'zod/mini';

/**
 * A parcel's id, apart from the parcel schemas (parcel.ts): a command that only names a parcel
 * (get, events, track) checks its id without building the create and patch schemas.
 */

/** A UUID in its canonical text form (any version, either case). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A parcel id: the UUID from `data.entry_id`. */
export const parcelIdSchema = z.string().check(z.regex(UUID_PATTERN, { error: 'must be a UUID (the parcel\'s entry_id)' }));

/**
 * The shortest prefix of a parcel id the CLI accepts (like git's abbreviated hashes, but never
 * shorter), and the shortest a terminal shows (src/io/short-ids.ts).
 */
export const ID_PREFIX_MIN = 8;
