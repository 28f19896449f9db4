/**
 * The code meanings the spec itself gives. Names for parcel statuses 4 and 5, location types and
 * service types are not in the spec: clients learn them from GET /deliveries/v1/reference.
 */
export const STATUS_NAMES: Readonly<Record<number, string>> = {
  0: 'registered',
  1: 'picked_up',
  2: 'in_transit',
  3: 'in_delivery',
};

export const OUTCOME_NAMES: Readonly<Record<number, string>> = {
  0: 'delivered',
  1: 'failed',
  2: 'delivered_elsewhere',
  3: 'refused',
  4: 'rescheduled',
};

export const REASON_NAMES: Readonly<Record<number, string>> = {
  0: 'no_reason',
  1: 'not_at_home',
  2: 'address_not_found',
  3: 'no_access',
  4: 'refused',
  5: 'damaged',
  6: 'no_time',
  7: 'vehicle_traffic',
  8: 'weather',
  9: 'business_closed',
  10: 'other',
};

export const PARCEL_STATUS_MIN = 0;
export const PARCEL_STATUS_MAX = 5;
/** Statuses a status event may report; 4 and 5 come only through delivery attempts. */
export const EVENT_STATUS_MAX = 3;

/** Code → name tables, learnt from GET /deliveries/v1/reference; the spec's own tables are the fallback. */
export type CodeNames = {
  status?: Readonly<Record<number, string>>;
  outcome?: Readonly<Record<number, string>>;
  reason?: Readonly<Record<number, string>>;
  location_type?: Readonly<Record<number, string>>;
  service_type?: Readonly<Record<number, string>>;
};

/**
 * Attempt outcomes that deliver the parcel (spec 2.4: 0 delivered, 2 delivered elsewhere): the
 * parcel's status becomes 4, and only these may carry a delivered-address group.
 */
export const DELIVERED_OUTCOMES: ReadonlySet<number> = new Set([0, 2]);

/**
 * The outcome whose point is the address it was delivered to (2 delivered elsewhere): without its
 * delivered-address group it closes the parcel for good with no address recorded, which the spec
 * allows and a person rarely means.
 */
export const ELSEWHERE_OUTCOME = 2;
