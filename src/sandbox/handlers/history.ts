import { randomUUID } from 'node:crypto';
import { deliveryAttemptSchema, statusEventSchema } from '../../schemas/history.js';
import type { Clock } from '../../schemas/time.js';
import { SandboxError } from '../errors.js';
import { DELIVERED_OUTCOMES } from '../../schemas/codes.js';
import type { AttemptInput, ParcelRecord, Repository } from '../store/types.js';
import { PARCEL_STATUS_NAMES, STATUS_DELIVERED, STATUS_NOT_DELIVERED, check, findParcel, parcelChanged, requireObject } from './common.js';
import type { RouteHandler } from './types.js';
import { defineHandler } from './types.js';

/** GET .../events returns at most this many: the newest, oldest first. */
export const EVENTS_RETURNED = 1000;

/**
 * Transition rules (the spec leaves them open):
 * - status 4 (delivered) is terminal: new events and attempts answer 409 parcel_delivered;
 * - from 0..3 an event may set any status 0..3 (tracking data can arrive out of order);
 * - from 5 (not_delivered) an event may set 2 or 3 (back on the road for redelivery), not 0 or 1;
 * - an attempt is accepted from 0..3 and 5; outcome 0/2 → 4, outcome 1/3/4 → 5.
 */
export function assertNotDelivered(parcel: ParcelRecord): void {
  if (parcel.status === STATUS_DELIVERED) {
    throw new SandboxError(409, 'parcel_delivered', 'the parcel is delivered (status 4, terminal); it takes no further events or attempts');
  }
}

export function assertEventTransition(parcel: ParcelRecord, to: number): void {
  assertNotDelivered(parcel);
  if (parcel.status === STATUS_NOT_DELIVERED && to !== 2 && to !== 3) {
    throw new SandboxError(
      409,
      'invalid_transition',
      `a parcel in status 5 (${PARCEL_STATUS_NAMES[5]}) can only move to 2 (in_transit) or 3 (in_delivery) for redelivery, not ${to}`,
      'status',
    );
  }
}

/** Stores a status event and moves the parcel to its status: the events route and scenario steps both write here. */
export function recordEvent(repo: Repository, parcel: ParcelRecord, eventId: string, status: number, occurredAt: number, now: number) {
  assertEventTransition(parcel, status);
  const event = repo.addEvent(parcel, eventId, status, occurredAt, now);
  const updated = repo.setParcelStatus(parcel, status, now);
  if (updated === undefined) throw parcelChanged();
  return { event, parcel: updated };
}

/** Stores a delivery attempt and sets the status it leads to: the attempts route and scenario steps both write here. */
export function recordAttempt(repo: Repository, parcel: ParcelRecord, input: AttemptInput, now: number) {
  assertNotDelivered(parcel);
  const attempt = repo.addAttempt(parcel, input, now);
  const updated = repo.setParcelStatus(parcel, DELIVERED_OUTCOMES.has(input.outcome) ? STATUS_DELIVERED : STATUS_NOT_DELIVERED, now);
  if (updated === undefined) throw parcelChanged();
  return { attempt, parcel: updated };
}

export const listEvents = defineHandler({
  validate: () => undefined,
  run(ctx) {
    const parcel = findParcel(ctx);
    return { status: 200, data: { events: ctx.deps.repo.listEvents(parcel, EVENTS_RETURNED) } };
  },
});

export function createEvent(clock: Clock): RouteHandler {
  const schema = statusEventSchema(clock);
  return defineHandler({
    validate: (ctx) => check(schema, requireObject(ctx.body)),
    run(ctx, input) {
      const { event } = recordEvent(ctx.deps.repo, findParcel(ctx), randomUUID(), input.status, input.occurred_at, ctx.now);
      return { status: 201, data: event };
    },
  });
}

export const listAttempts = defineHandler({
  validate: () => undefined,
  run(ctx) {
    const parcel = findParcel(ctx);
    return { status: 200, data: { attempts: ctx.deps.repo.listAttempts(parcel) } };
  },
});

export function createAttempt(clock: Clock): RouteHandler {
  const schema = deliveryAttemptSchema(clock);
  return defineHandler({
    validate: (ctx) => check(schema, requireObject(ctx.body)),
    run(ctx, input) {
      const { attempt } = recordAttempt(
        ctx.deps.repo,
        findParcel(ctx),
        { outcome: input.outcome, reason: input.reason, time_attempt: input.time_attempt, delivered: input.delivered ?? null },
        ctx.now,
      );
      return { status: 201, data: attempt };
    },
  });
}
