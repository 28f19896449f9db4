import type { ScenarioDefinition, ScenarioRule, ScenarioStep } from './types.js';

const M = 60_000;
const H = 60 * M;

const event = (after: number, status: number, lateBy = 0): ScenarioStep => ({ after, lateBy, event: status });
const attempt = (after: number, outcome: number, reason: number): ScenarioStep => ({ after, lateBy: 0, attempt: { outcome, reason } });

/** Picked up, in transit, in delivery: the first 4 h 15 min of every built-in life. */
const ON_THE_ROAD = [event(15 * M, 1), event(H, 2), event(3 * H, 3)];
const NOT_AT_HOME = 1;

/** The built-in scenarios (docs/sandbox.md lists their exact sequences). */
export const BUILTIN_SCENARIOS: ReadonlyMap<string, ScenarioDefinition> = new Map([
  ['happy', { description: 'registered → picked up → in transit → in delivery → delivered', steps: [...ON_THE_ROAD, attempt(H, 0, 0)] }],
  [
    'failed-then-delivered',
    {
      description: 'a failed attempt (not at home), back in delivery the next morning, delivered',
      steps: [...ON_THE_ROAD, attempt(H, 1, NOT_AT_HOME), event(12 * H, 3), attempt(2 * H, 0, 0)],
    },
  ],
  [
    'three-failures-returned',
    {
      description: 'three failed attempts; the parcel ends not delivered (status 5)',
      steps: [...ON_THE_ROAD, attempt(H, 1, NOT_AT_HOME), event(12 * H, 3), attempt(H, 1, NOT_AT_HOME), event(12 * H, 3), attempt(H, 1, NOT_AT_HOME)],
    },
  ],
  [
    'delivered-elsewhere',
    {
      description: 'delivered to a neighbour (outcome 2, location type 1)',
      steps: [
        ...ON_THE_ROAD,
        {
          after: H,
          lateBy: 0,
          attempt: { outcome: 2, reason: NOT_AT_HOME, delivered: { delivered_country: 'NL', delivered_postal_code: '1234AB', delivered_number: '12', delivered_location_type: 1 } },
        },
      ],
    },
  ],
  ['refused', { description: 'the recipient refuses the parcel (outcome 3, reason 4); status 5', steps: [...ON_THE_ROAD, attempt(H, 3, 4)] }],
  [
    'late',
    {
      description: 'the van runs a day late: in delivery after 28 h, delivered after 29 h (the slot is missed)',
      steps: [event(15 * M, 1), event(H, 2), event(26 * H, 3), attempt(H, 0, 0)],
    },
  ],
  [
    'out-of-order',
    {
      description: 'the delivered attempt arrives before the in-delivery scan, which the API then refuses (409 parcel_delivered)',
      steps: [event(15 * M, 1), event(H, 2), attempt(3 * H, 0, 0), event(M, 3, 11 * M)],
    },
  ],
]);

/**
 * Built-in rules, like magic test values: courier DEMO-SIM (when a seed defines it) walks `happy`;
 * postal code 9999 plus two letters picks a scenario by its letters.
 */
export const BUILTIN_RULES: readonly ScenarioRule[] = [
  { scenario: 'happy', courier: 'DEMO-SIM' },
  { scenario: 'happy', postalCode: /^9999HA$/i },
  { scenario: 'failed-then-delivered', postalCode: /^9999FD$/i },
  { scenario: 'three-failures-returned', postalCode: /^9999TF$/i },
  { scenario: 'delivered-elsewhere', postalCode: /^9999DE$/i },
  { scenario: 'refused', postalCode: /^9999RF$/i },
  { scenario: 'late', postalCode: /^9999LT$/i },
  { scenario: 'out-of-order', postalCode: /^9999OO$/i },
];
