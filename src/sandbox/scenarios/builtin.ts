import type { ScenarioDefinition, ScenarioRule, ScenarioStep } from './types.js';
import type { BuiltinScenarioName } from '../../schemas/scenarios.js';
import { BUILTIN_SCENARIOS_DESCRIBED } from '../../schemas/scenarios.js';

const M = 60_000;
const H = 60 * M;

const event = (after: number, status: number, lateBy = 0): ScenarioStep => ({ after, lateBy, event: status });
const attempt = (after: number, outcome: number, reason: number): ScenarioStep => ({ after, lateBy: 0, attempt: { outcome, reason } });

/** Picked up, in transit, in delivery: the first 4 h 15 min of every built-in life. */
const ON_THE_ROAD = [event(15 * M, 1), event(H, 2), event(3 * H, 3)];
const NOT_AT_HOME = 1;

/**
 * The built-in scenarios (docs/sandbox.md lists their exact sequences), one per name of
 * BuiltinScenarioName: the type `parcels/testing` offers as ScenarioName, so the two cannot drift.
 */
const BUILTIN_TABLE: Record<BuiltinScenarioName, ScenarioDefinition> = {
  'happy': { description: BUILTIN_SCENARIOS_DESCRIBED['happy'], steps: [...ON_THE_ROAD, attempt(H, 0, 0)] },
  'failed-then-delivered': {
    description: BUILTIN_SCENARIOS_DESCRIBED['failed-then-delivered'],
    steps: [...ON_THE_ROAD, attempt(H, 1, NOT_AT_HOME), event(12 * H, 3), attempt(2 * H, 0, 0)],
  },
  'three-failures-returned': {
    description: BUILTIN_SCENARIOS_DESCRIBED['three-failures-returned'],
    steps: [...ON_THE_ROAD, attempt(H, 1, NOT_AT_HOME), event(12 * H, 3), attempt(H, 1, NOT_AT_HOME), event(12 * H, 3), attempt(H, 1, NOT_AT_HOME)],
  },
  'delivered-elsewhere': {
    description: BUILTIN_SCENARIOS_DESCRIBED['delivered-elsewhere'],
    steps: [
      ...ON_THE_ROAD,
      {
        after: H,
        lateBy: 0,
        attempt: { outcome: 2, reason: NOT_AT_HOME, delivered: { delivered_country: 'NL', delivered_postal_code: '1234AB', delivered_number: '12', delivered_location_type: 1 } },
      },
    ],
  },
  'refused': { description: BUILTIN_SCENARIOS_DESCRIBED['refused'], steps: [...ON_THE_ROAD, attempt(H, 3, 4)] },
  'late': {
    description: BUILTIN_SCENARIOS_DESCRIBED['late'],
    steps: [event(15 * M, 1), event(H, 2), event(26 * H, 3), attempt(H, 0, 0)],
  },
  'out-of-order': {
    description: BUILTIN_SCENARIOS_DESCRIBED['out-of-order'],
    steps: [event(15 * M, 1), event(H, 2), attempt(3 * H, 0, 0), event(M, 3, 11 * M)],
  },
};

export const BUILTIN_SCENARIOS: ReadonlyMap<string, ScenarioDefinition> = new Map(Object.entries(BUILTIN_TABLE));

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
