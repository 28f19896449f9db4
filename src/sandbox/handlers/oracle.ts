import * as z from 'zod/mini';
import { intRange } from '../../schemas/text.js';
import { SandboxError, badRequest } from '../errors.js';
import { check, dayStart, intParam, isoDate } from './common.js';
import { defineHandler } from './types.js';

const DAY = 86_400;
import { ORACLE_METRICS } from '../../schemas/oracle-metrics.js';
import type { OracleMetric as Metric } from '../../schemas/oracle-metrics.js';

const daysSchema = z.object({ days: z._default(intRange(1, 30), 7) });

function series(from: number, days: number, counts: Map<string, number>[], names: string[]) {
  const out = [];
  for (let i = 0; i < days; i++) {
    const date = isoDate(from + i * DAY);
    const row: Record<string, string | number> = { date };
    names.forEach((name, j) => (row[name] = counts[j]?.get(date) ?? 0));
    out.push(row);
  }
  return out;
}

const toMap = (rows: Array<{ date: string; count: number }>) => new Map(rows.map((r) => [r.date, r.count]));

/**
 * GET /deliveries/v1/oracle/{metric}:
 * - activity?days=1..30 (default 7): events and attempts recorded per UTC day, the last `days` days up to today;
 * - planned?days=1..30 (default 7): parcels not yet delivered whose time slot starts on each day from today on;
 * - coverage: countries, postcode areas and couriers of the organisation.
 * Any other metric: 404 unknown_metric. When the sandbox runs with the oracle switched off: 503.
 */
export const oracle = defineHandler({
  query: ['days'],
  validate(ctx) {
    if (!ctx.deps.oracleAvailable) {
      throw new SandboxError(503, 'oracle_unavailable', 'the oracle is unavailable; try again later', undefined, undefined, { 'Retry-After': '30' });
    }
    const metric = ctx.params.metric as string;
    if (!(ORACLE_METRICS as readonly string[]).includes(metric)) {
      throw new SandboxError(404, 'unknown_metric', `unknown oracle metric "${metric}"; use one of ${ORACLE_METRICS.join(', ')}`, 'metric');
    }
    if (metric === 'coverage') {
      if (ctx.query.has('days')) throw badRequest('unknown_parameter', 'coverage takes no query parameters', 'days');
      return { metric: metric as Metric, days: 0 };
    }
    return { metric: metric as Metric, days: check(daysSchema, { days: intParam(ctx, 'days') }).days };
  },
  run(ctx, { metric, days }) {
    const repo = ctx.deps.repo;
    const today = dayStart(ctx.now);
    if (metric === 'activity') {
      const from = today - (days - 1) * DAY;
      const to = today + DAY;
      const counts = [toMap(repo.eventsPerDay(ctx.org.id, from, to)), toMap(repo.attemptsPerDay(ctx.org.id, from, to))];
      return { status: 200, data: { metric, days: series(from, days, counts, ['events', 'attempts']) } };
    }
    if (metric === 'planned') {
      const counts = [toMap(repo.plannedPerDay(ctx.org.id, today, today + days * DAY))];
      return { status: 200, data: { metric, days: series(today, days, counts, ['parcels']) } };
    }
    const byCourier = repo.countParcelsByCourier(ctx.org.id);
    return {
      status: 200,
      data: {
        metric,
        countries: ['NL'],
        postcode_areas: repo.postcodeAreas(ctx.org.id),
        couriers: ctx.org.couriers.map((c) => ({ code: c.code, name: c.name, parcels: byCourier.get(c.code) ?? 0 })),
      },
    };
  },
});
