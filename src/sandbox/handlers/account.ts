import { PARCEL_STATUS_NAMES, dayStart, isoDate } from './common.js';
import type { Repository } from '../store/types.js';
import { defineHandler } from './types.js';

const DAY = 86_400;
/** Usage totals and the request log cover the last 30 days (today included). */
export const USAGE_DAYS = 30;
export const USAGE_REQUESTS_RETURNED = 100;

export const listCouriers = defineHandler({
  validate: () => undefined,
  run: (ctx) => ({ status: 200, data: { couriers: ctx.org.couriers.map((c) => ({ code: c.code, name: c.name })) } }),
});

export const overview = defineHandler({
  validate: () => undefined,
  run(ctx) {
    const repo = ctx.deps.repo;
    const byStatus = repo.countParcelsByStatus(ctx.org.id);
    const byCourier = repo.countParcelsByCourier(ctx.org.id);
    let total = 0;
    for (const n of byStatus.values()) total += n;
    return {
      status: 200,
      data: {
        organisation: { id: ctx.org.id, name: ctx.org.name, verified: ctx.org.verified },
        parcels: {
          total,
          by_status: [0, 1, 2, 3, 4, 5].map((s) => ({ status: s, name: PARCEL_STATUS_NAMES[s], count: byStatus.get(s) ?? 0 })),
        },
        couriers: ctx.org.couriers.map((c) => ({ code: c.code, name: c.name, parcels: byCourier.get(c.code) ?? 0 })),
        events: repo.countEvents(ctx.org.id),
        attempts: repo.countAttempts(ctx.org.id),
      },
    };
  },
});

/** The organisation's requests and errors per UTC day: exactly USAGE_DAYS days ending today, oldest first, zeros included. */
export function usageDays(repo: Repository, orgId: string, now: number): Array<{ date: string; requests: number; errors: number }> {
  const from = dayStart(now) - (USAGE_DAYS - 1) * DAY;
  const rows = new Map(repo.usagePerDay(orgId, from).map((r) => [r.date, r]));
  const days = [];
  for (let i = 0; i < USAGE_DAYS; i++) {
    const date = isoDate(from + i * DAY);
    const r = rows.get(date);
    days.push({ date, requests: r?.requests ?? 0, errors: r?.errors ?? 0 });
  }
  return days;
}

export const usageDaily = defineHandler({
  validate: () => undefined,
  run(ctx) {
    ctx.deps.flushUsage();
    return { status: 200, data: { days: usageDays(ctx.deps.repo, ctx.org.id, ctx.now) } };
  },
});

export const usageRequests = defineHandler({
  validate: () => undefined,
  run(ctx) {
    ctx.deps.flushUsage();
    const since = ctx.now - USAGE_DAYS * DAY;
    const requests = ctx.deps.repo.usageRecent(ctx.org.id, since, USAGE_REQUESTS_RETURNED);
    return { status: 200, data: { requests } };
  },
});
