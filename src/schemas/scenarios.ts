/**
 * The sandbox's built-in scenarios and its test clock's actions, by name: the sandbox runs them
 * (src/sandbox/scenarios/builtin.ts, src/sandbox/testclock.ts), and help and completion list them
 * (a sandbox started with --scenarios FILE may know more scenarios).
 */
export const BUILTIN_SCENARIOS_DESCRIBED = {
  happy: 'registered → picked up → in transit → in delivery → delivered',
  'failed-then-delivered': 'a failed attempt (not at home), back in delivery the next morning, delivered',
  'three-failures-returned': 'three failed attempts; the parcel ends not delivered (status 5)',
  'delivered-elsewhere': 'delivered to a neighbour (outcome 2, location type 1)',
  refused: 'the recipient refuses the parcel (outcome 3, reason 4); status 5',
  late: 'the van runs a day late: in delivery after 28 h, delivered after 29 h (the slot is missed)',
  'out-of-order': 'the delivered attempt arrives before the in-delivery scan, which the API then refuses (409 parcel_delivered)',
} as const;

export type BuiltinScenarioName = keyof typeof BUILTIN_SCENARIOS_DESCRIBED;

export const CLOCK_ACTIONS_DESCRIBED = {
  advance: 'move the clock forward by a duration, e.g. 36h',
  set: 'set the clock to a time, e.g. 2026-12-01T09:00Z',
  freeze: 'stop the clock',
  resume: 'let a frozen clock run again',
  speed: 'run the clock n times real time, e.g. 600',
} as const;

/** The actions of `parcels sandbox faults` (the admin route's /_sandbox/v1/faults). */
export const FAULT_ACTIONS_DESCRIBED = {
  list: 'the aimed faults and the rates',
  add: 'aim a fault: --route or --method and --path; --status, --drop or --latency',
  remove: 'remove an aimed fault by its id, e.g. flt_1',
  clear: 'remove every aimed fault and set every rate to 0',
  rates: 'change the rates: --fail-rate, --drop-rate, --latency, --retry-after',
} as const;

/** The actions of `parcels sandbox tenants`. */
export const TENANT_ACTIONS_DESCRIBED = {
  list: 'list the tenants (the default)',
  create: 'create a tenant: tenants create NAME [--seed FILE]',
  remove: 'remove a tenant and everything in it: tenants remove NAME',
} as const;
