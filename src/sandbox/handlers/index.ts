import type { RouteName } from '../../schemas/routes.js';
import type { Clock } from '../../schemas/time.js';
import { listCouriers, overview, usageDaily, usageRequests } from './account.js';
import { validateAddress } from './address.js';
import { createAttempt, createEvent, listAttempts, listEvents } from './history.js';
import { oracle } from './oracle.js';
import { createParcel, getParcel, listParcels, patchParcel } from './parcels.js';
import { reference } from './reference.js';
import type { RouteHandler } from './types.js';

/** One handler per route of the spec's table (src/schemas/routes.ts). */
export function buildHandlers(clock: Clock): Record<RouteName, RouteHandler> {
  return {
    'couriers.list': listCouriers,
    'overview.get': overview,
    'usage.daily': usageDaily,
    'usage.requests': usageRequests,
    'parcels.list': listParcels,
    'parcels.create': createParcel,
    'parcels.get': getParcel,
    'parcels.patch': patchParcel,
    'events.list': listEvents,
    'events.create': createEvent(clock),
    'attempts.list': listAttempts,
    'attempts.create': createAttempt(clock),
    'address.validate': validateAddress,
    'reference.get': reference,
    'oracle.get': oracle,
  };
}
